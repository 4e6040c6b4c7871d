INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 9, 0);
INSERT INTO call(id, kernel, file, line, begin_off, end_off, callee, callee_begin_off, callee_end_off,
                 category, is_device_code, arg_is_float)
VALUES (1, 'norm', 'input.cu', 7, off('sqrt(v)'), offend('sqrt(v)'), 'sqrt', off('sqrt(v)'), off('sqrt(v)') + 4, 'math', 1, 1),
       (2, 'norm', 'input.cu', 7, off('exp(v)'), offend('exp(v)'), 'exp', off('exp(v)'), off('exp(v)') + 3, 'math', 1, 1),
       (3, 'norm', 'input.cu', 7, off('sqrt(d[i])'), offend('sqrt(d[i])'), 'sqrt', off('sqrt(d[i])'), off('sqrt(d[i])') + 4, 'math', 1, 0);
INSERT INTO fix_request VALUES ('double-math-to-float', 'call', 1, 'math-fp64-promotion', 'unsafe');
INSERT INTO fix_request VALUES ('double-math-to-float', 'call', 2, 'math-fp64-promotion', 'unsafe');
INSERT INTO fix_request VALUES ('double-math-to-float', 'call', 3, 'math-fp64-promotion', 'unsafe');
