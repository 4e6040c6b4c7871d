INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 17, 0);
INSERT INTO kernel(id, name, file, kind) VALUES (1, 'transpose', 'input.cu', 'global');
INSERT INTO shared_array(id, kernel_id, kernel, name, file, line, begin_off, end_off, ndims, dim0, dim1,
                         inner_dim_begin_off, inner_dim_end_off, is_reinterpreted, is_dynamic, is_file_scope)
VALUES (1, 1, 'transpose', 'tile', 'input.cu', 5, off('tile[TILE]'), offend('tile[TILE][TILE]'), 2, 32, 32,
        off('[TILE];'), off('[TILE];') + 6, 0, 0, 0),
       (2, 1, 'transpose', 'other', 'input.cu', 6, off('other[32]'), offend('other[32][32]'), 2, 32, 32,
        off('32];'), off('32];') + 2, 0, 0, 0),
       (3, 1, 'transpose', 'vec', 'input.cu', 7, off('vec[32]'), offend('vec[32][32]'), 2, 32, 32,
        off('32];', 2), off('32];', 2) + 2, 1, 0, 0);
INSERT INTO access(id, kernel_id, kernel, file, line, begin_off, end_off, space, rw, base, base_array, bank_ways)
VALUES (1, 1, 'transpose', 'input.cu', 15, off('other[threadIdx.x]'), offend('other[threadIdx.x][threadIdx.y]'),
        'shared', 'read', 'other', 'other', 32);
INSERT INTO fix_request VALUES ('pad-shared-array', 'shared_array', 1, 'smem-bank-conflict', 'safe');
INSERT INTO fix_request VALUES ('pad-shared-array', 'access', 1, 'smem-bank-conflict', 'safe');
INSERT INTO fix_request VALUES ('pad-shared-array', 'shared_array', 3, 'smem-bank-conflict', 'safe');
