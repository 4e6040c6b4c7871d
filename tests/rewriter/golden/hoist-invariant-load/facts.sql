INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 13, 0);
INSERT INTO kernel(id, name, kind, file, begin_off, body_begin_off, end_off)
VALUES (1, 'dense', 'global', 'input.cu', off('__global__'), off('{'), offend('out[i] = acc;') + 2);
INSERT INTO loop(id, kernel_id, kernel, file, line, begin_off, end_off, kind, iv)
VALUES (1, 1, 'dense', 'input.cu', 9, off('for (int j'), offend('bias[i];') + 6, 'for', 'j');
INSERT INTO access(id, kernel_id, kernel, file, line, begin_off, end_off, space, rw, base, loop_id, in_loop, loop_invariant)
VALUES (1, 1, 'dense', 'input.cu', 10, off('bias[i]'), offend('bias[i]'), 'global', 'read', 'bias', 1, 1, 1),
       (2, 1, 'dense', 'input.cu', 10, off('scale[0]'), offend('scale[0]'), 'global', 'read', 'scale', 1, 1, 1),
       (3, 1, 'dense', 'input.cu', 10, off('x[j]'), offend('x[j]'), 'global', 'read', 'x', 1, 1, 0);
INSERT INTO fix_request VALUES ('hoist-invariant-load', 'access', 1, 'gmem-loop-invariant-load', 'unsafe');
INSERT INTO fix_request VALUES ('hoist-invariant-load', 'access', 2, 'gmem-loop-invariant-load', 'unsafe');
INSERT INTO fix_request VALUES ('hoist-invariant-load', 'access', 3, 'gmem-loop-invariant-load', 'unsafe');
