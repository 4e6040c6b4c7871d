INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 7, 0);
INSERT INTO kernel(id, name, kind, file) VALUES (1, 'saxpy', 'global', 'input.cu');
INSERT INTO param(id, kernel_id, kernel, idx, name, type, file, begin_off, end_off, is_pointer,
                  is_const_pointee, is_restrict, is_read, is_written)
VALUES (1, 1, 'saxpy', 0, 'y', 'float *', 'input.cu', off('float *y'), offend('float *y'), 1, 0, 0, 1, 1),
       (2, 1, 'saxpy', 1, 'x', 'float *', 'input.cu', off('float *x'), offend('float *x'), 1, 0, 0, 1, 0),
       (3, 1, 'saxpy', 2, 'a', 'float *', 'input.cu', off('float* a'), offend('float* a'), 1, 0, 0, 1, 0),
       (4, 1, 'saxpy', 3, 'n', 'int', 'input.cu', off('int n'), offend('int n'), 0, 0, 0, 1, 0);
INSERT INTO fix_request VALUES ('const-restrict-params', 'kernel', 1, 'gmem-missing-restrict', 'unsafe');
