INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 7, 0);
INSERT INTO kernel(id, name, kind, file, begin_off, body_begin_off, end_off)
VALUES (1, 'histogram', 'global', 'input.cu', off('__global__'), off('{'), offend('1u);') + 2);
INSERT INTO atomic(id, kernel_id, kernel, file, line, begin_off, end_off, op, space, base, elem_type, index_text,
                   address_data_dependent, address_small_range)
VALUES (1, 1, 'histogram', 'input.cu', 6, off('atomicAdd'), offend('1u)'), 'atomicAdd', 'global', 'hist',
        'unsigned int', 'data[i] & 255', 1, 1);
INSERT INTO fix_request VALUES ('privatize-atomics', 'atomic', 1, 'atom-global-hot-bins', 'suggest');
