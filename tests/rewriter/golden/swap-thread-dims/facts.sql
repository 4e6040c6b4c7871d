INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 15, 0);
INSERT INTO kernel(id, name, kind, file, begin_off, body_begin_off, end_off, n_launch_sites, launch_sites_agree)
VALUES (1, 'scale2d', 'global', 'input.cu', off('__global__'), off('{'), offend('*= 2.0f;') + 2, 1, 1);
INSERT INTO launch(id, kernel_id, kernel, file, line, begin_off, end_off, func_begin_off,
                   block_begin_off, block_end_off, grid_begin_off, grid_end_off)
VALUES (1, 1, 'scale2d', 'input.cu', 14, off('scale2d<<<'), offend('(a, N);'), off('void run'),
        off('block>>>'), off('block>>>') + 5, off('grid, block'), off('grid, block') + 4);
INSERT INTO access(id, kernel_id, kernel, file, line, begin_off, end_off, space, rw, base)
VALUES (1, 1, 'scale2d', 'input.cu', 7, off('a[row'), offend('a[row * N + col]'), 'global', 'readwrite', 'a');
INSERT INTO fix_request VALUES ('swap-thread-dims', 'access', 1, 'gmem-row-index-from-threadidx-x', 'suggest');
