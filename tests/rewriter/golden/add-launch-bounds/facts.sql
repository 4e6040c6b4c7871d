INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 21, 0);
INSERT INTO kernel(id, name, kind, file, line, decl_begin_off, begin_off, body_begin_off, end_off,
                   block_threads, block_source, launch_sites_agree, launch_bounds_max)
VALUES (1, 'axpy', 'global', 'input.cu', 2, off('__global__ void axpy'), off('__global__ void axpy'),
        off('{'), offend('a * x[i];') + 2, 256, 'launch', 1, NULL),
       (2, 'fill', 'global', 'input.cu', 10, off('template'), off('template'),
        off('{', 2), offend('p[i] = v;') + 2, 128, 'launch', 1, NULL),
       (3, 'tiny', 'global', 'input.cu', 17, off('__global__ void tiny'), off('__global__ void tiny'),
        off('{', 3), offend('p[i] = 0.0f;') + 2, 64, 'launch', 1, NULL);
INSERT INTO launch(id, kernel_id, kernel, file, line, begin_off, end_off, block_threads)
VALUES (1, 1, 'axpy', 'input.cu', 19, off('axpy<<<'), offend('2.0f, n)'), 256);
INSERT INTO fix_request VALUES ('add-launch-bounds', 'launch', 1, 'launch-missing-launch-bounds', 'safe');
INSERT INTO fix_request VALUES ('add-launch-bounds', 'kernel', 2, 'launch-missing-launch-bounds', 'safe');
INSERT INTO fix_request VALUES ('add-launch-bounds', 'kernel', 3, 'launch-missing-launch-bounds', 'safe');
