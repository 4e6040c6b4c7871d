INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 10, 0);
INSERT INTO call(id, kernel, file, line, begin_off, end_off, callee, callee_begin_off, callee_end_off, is_device_code)
VALUES (1, 'inv_norm', 'input.cu', 6, off('sqrtf(x[i])'), offend('sqrtf(x[i])'), 'sqrtf', off('sqrtf(x[i])'), off('sqrtf(x[i])') + 5, 1),
       (2, 'inv_norm', 'input.cu', 7, off('sqrtf(x[i] + 1.0f)'), offend('sqrtf(x[i] + 1.0f)'), 'sqrtf', off('sqrtf(x[i] + 1.0f)'), off('sqrtf(x[i] + 1.0f)') + 5, 1);
INSERT INTO fix_request VALUES ('rsqrt', 'call', 1, 'math-recip-sqrt', 'unsafe');
INSERT INTO fix_request VALUES ('rsqrt', 'call', 2, 'math-recip-sqrt', 'unsafe');
