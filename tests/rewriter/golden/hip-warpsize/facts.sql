INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'hip', 1, 12, 0);
INSERT INTO literal(id, kernel, file, line, begin_off, end_off, text, kind, in_macro)
VALUES (1, 'lanes', 'input.cu', 5, off('32]'), off('32]') + 2, '32', 'int', 0),
       (2, 'lanes', 'input.cu', 6, off('32;'), off('32;') + 2, '32', 'int', 0),
       (3, 'lanes', 'input.cu', 7, off('32;', 2), off('32;', 2) + 2, '32', 'int', 0),
       (4, 'lanes', 'input.cu', 8, off('31;'), off('31;') + 2, '31', 'int', 0);
INSERT INTO fix_request VALUES ('hip-warpsize', 'literal', 1, 'hip-hardcoded-warp-size', 'safe');
INSERT INTO fix_request VALUES ('hip-warpsize', 'literal', 2, 'hip-hardcoded-warp-size', 'safe');
INSERT INTO fix_request VALUES ('hip-warpsize', 'literal', 3, 'hip-hardcoded-warp-size', 'safe');
INSERT INTO fix_request VALUES ('hip-warpsize', 'literal', 4, 'hip-hardcoded-warp-size', 'safe');
