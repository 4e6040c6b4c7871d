INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 11, 0);
INSERT INTO literal(id, kernel, file, line, begin_off, end_off, text, kind, promotes_to_double, in_macro)
VALUES (1, 'scale', 'input.cu', 8, off('0.5 +'), off('0.5 +') + 3, '0.5', 'double', 1, 0),
       (2, 'scale', 'input.cu', 8, off('1e-3'), offend('1e-3'), '1e-3', 'double', 1, 0),
       (3, 'scale', 'input.cu', 9, off('HALF;'), offend('HALF;') - 1, '0.5', 'double', 1, 1);
INSERT INTO fix_request VALUES ('float-literal-suffix', 'literal', 1, 'math-fp64-promotion', 'unsafe');
INSERT INTO fix_request VALUES ('float-literal-suffix', 'literal', 2, 'math-fp64-promotion', 'unsafe');
INSERT INTO fix_request VALUES ('float-literal-suffix', 'literal', 3, 'math-fp64-promotion', 'unsafe');
