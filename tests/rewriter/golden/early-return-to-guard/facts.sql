INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 11, 0);
INSERT INTO kernel(id, name, kind, file, begin_off, body_begin_off, end_off)
VALUES (1, 'shift', 'global', 'input.cu', off('__global__'), off('{'), offend('- left;') + 2);
INSERT INTO early_return(id, kernel_id, kernel, file, line, begin_off, end_off, cond_text, thread_dependent,
                         before_barrier, barrier_line, if_begin_off, if_end_off, cond_begin_off, cond_end_off)
VALUES (1, 1, 'shift', 'input.cu', 6, off('if (i >= n)'), offend('if (i >= n) return;'), 'i >= n', 1, 1, 8,
        off('if (i >= n)'), offend('if (i >= n) return;'), off('i >= n'), offend('i >= n'));
INSERT INTO fix_request VALUES ('early-return-to-guard', 'early_return', 1, 'sync-early-return-before-barrier', 'safe');
