INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 16, 0);
INSERT INTO reduction_loop(id, kernel, file, line, begin_off, end_off, style, array, iv)
VALUES (1, 'reduce', 'input.cu', 8, off('for ('), offend('__syncthreads();', 2) + 6, 'interleaved', 'sdata', 's');
INSERT INTO fix_request VALUES ('sequential-reduction', 'reduction_loop', 1, 'div-interleaved-reduction', 'safe');
