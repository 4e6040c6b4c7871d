INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 13, 0);
INSERT INTO kernel(id, name, kind, file, has_bounds_guard) VALUES (1, 'add', 'global', 'input.cu', 1);
INSERT INTO launch(id, kernel_id, kernel, file, line, begin_off, end_off, block_threads, block_x, block_y, block_z,
                   block_begin_off, block_end_off, grid_begin_off, grid_end_off, grid_is_ceil_div)
VALUES (1, 1, 'add', 'input.cu', 11, off('add<<<'), offend('n);'), 32, 32, 1, 1,
        off('32>>>'), off('32>>>') + 2, off('(n + 31) / 32'), offend('(n + 31) / 32'), 1),
       (2, 1, 'add', 'input.cu', 12, off('add<<<', 2), offend('n);', 2), 96, 96, 1, 1,
        off('96>>>'), off('96>>>') + 2, off('n / 96'), offend('n / 96'), 0);
INSERT INTO fix_request VALUES ('round-block-size', 'launch', 1, 'launch-tiny-blocks', 'unsafe');
INSERT INTO fix_request VALUES ('round-block-size', 'launch', 2, 'launch-tiny-blocks', 'unsafe');
