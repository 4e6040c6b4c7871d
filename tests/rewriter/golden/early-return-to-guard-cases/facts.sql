INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 27, 0);
INSERT INTO kernel(id, name, kind, file, begin_off, body_begin_off, end_off)
VALUES (1, 'stencil', 'global', 'input.cu', off('__global__ void stencil'), off('{'), offend('+ b[0];') + 2),
       (2, 'carry', 'global', 'input.cu', off('__global__ void carry'), off('{', 3), offend('+ v;') + 2);
INSERT INTO early_return(id, kernel_id, kernel, file, line, begin_off, end_off, cond_text, thread_dependent,
                         before_barrier, if_begin_off, if_end_off, cond_begin_off, cond_end_off)
VALUES (1, 1, 'stencil', 'input.cu', 9, off('return;'), off('return;') + 6, 'i >= n || in[i] < 0.0f', 1, 1,
        off('if (i >= n ||'), offend('return;') + 6, off('i >= n ||'), offend('< 0.0f')),
       (2, 2, 'carry', 'input.cu', 22, off('return;', 2), off('return;', 2) + 6, 'i >= n', 1, 1,
        off('if (i >= n) return'), offend('if (i >= n) return'), off('i >= n)'), off('i >= n)') + 6);
INSERT INTO fix_request VALUES ('early-return-to-guard', 'early_return', 1, 'sync-early-return-before-barrier', 'safe');
INSERT INTO fix_request VALUES ('early-return-to-guard', 'early_return', 2, 'sync-early-return-before-barrier', 'safe');
