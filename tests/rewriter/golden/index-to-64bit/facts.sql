INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 10, 0);
INSERT INTO kernel(id, name, kind, file, begin_off, body_begin_off, end_off)
VALUES (1, 'copy', 'global', 'input.cu', off('__global__'), off('{'), offend('src[k];') + 2);
INSERT INTO access(id, kernel_id, kernel, file, line, begin_off, end_off, space, rw, base)
VALUES (1, 1, 'copy', 'input.cu', 9, off('dst[i]'), offend('dst[i]'), 'global', 'write', 'dst');
INSERT INTO fix_request VALUES ('index-to-64bit', 'access', 1, 'idx-int32-overflow', 'safe');
