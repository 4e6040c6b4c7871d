INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 12, 0);
INSERT INTO call(id, kernel, file, line, begin_off, end_off, callee, callee_begin_off, callee_end_off,
                 nargs, arg0_begin_off, arg0_end_off, arg1_const, arg_is_float, is_device_code)
VALUES (1, 'poly', 'input.cu', 6, off('powf(x[i], 2.0f)'), offend('powf(x[i], 2.0f)'), 'powf',
        off('powf(x[i], 2.0f)'), off('powf(x[i], 2.0f)') + 4, 2, off('x[i], 2.0f'), off('x[i], 2.0f') + 4, 2.0, 1, 1),
       (2, 'poly', 'input.cu', 7, off('powf(x[i] + 1.0f, 3)'), offend('powf(x[i] + 1.0f, 3)'), 'powf',
        off('powf(x[i] + 1.0f, 3)'), off('powf(x[i] + 1.0f, 3)') + 4, 2, off('x[i] + 1.0f'), offend('x[i] + 1.0f'), 3.0, 1, 1),
       (3, 'poly', 'input.cu', 8, off('pow(d[i], 2.0)'), offend('pow(d[i], 2.0)'), 'pow',
        off('pow(d[i], 2.0)'), off('pow(d[i], 2.0)') + 3, 2, off('d[i], 2.0'), off('d[i], 2.0') + 4, 2.0, 0, 1),
       (4, 'poly', 'input.cu', 9, off('powf(x[i], 2.5f)'), offend('powf(x[i], 2.5f)'), 'powf',
        off('powf(x[i], 2.5f)'), off('powf(x[i], 2.5f)') + 4, 2, off('x[i], 2.5f'), off('x[i], 2.5f') + 4, 2.5, 1, 1);
INSERT INTO fix_request VALUES ('pow-to-multiply', 'call', 1, 'math-pow-small-integer', 'safe');
INSERT INTO fix_request VALUES ('pow-to-multiply', 'call', 2, 'math-pow-small-integer', 'safe');
INSERT INTO fix_request VALUES ('pow-to-multiply', 'call', 3, 'math-pow-small-integer', 'safe');
INSERT INTO fix_request VALUES ('pow-to-multiply', 'call', 4, 'math-pow-small-integer', 'safe');
