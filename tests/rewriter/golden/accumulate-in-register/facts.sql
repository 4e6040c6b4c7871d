INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 11, 0);
INSERT INTO kernel(id, name, kind, file, begin_off, body_begin_off, end_off)
VALUES (1, 'sgemm', 'global', 'input.cu', off('__global__'), off('{'), offend('    }') + 2);
INSERT INTO loop(id, kernel_id, kernel, file, line, begin_off, end_off, kind, iv)
VALUES (1, 1, 'sgemm', 'input.cu', 8, off('for (int k'), offend('B[k * N + col];'), 'for', 'k');
INSERT INTO access(id, kernel_id, kernel, file, line, begin_off, end_off, space, rw, base, loop_id, in_loop, loop_invariant)
VALUES (1, 1, 'sgemm', 'input.cu', 9, off('C[row * N + col] +='), off('C[row * N + col] +=') + 16, 'global', 'readwrite', 'C', 1, 1, 1);
INSERT INTO fix_request VALUES ('accumulate-in-register', 'access', 1, 'gmem-accumulate-in-global', 'unsafe');
