INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 16, 0);
INSERT INTO launch(id, kernel_id, kernel, func, file, line, begin_off, end_off, api, smem_text, dyn_smem,
                   smem_optin, stmt_begin_off, stmt_end_off)
VALUES (1, 1, 'big', 'run', 'input.cu', 13, off('big<<<'), offend('(out)'), 'chevron', 'bytes', 65536, 0,
        off('big<<<'), offend('(out);')),
       (2, 1, 'big', 'run', 'input.cu', 15, off('big<<<', 2), offend('(out)', 2), 'chevron', 'bytes', 65536, 0,
        off('big<<<', 2), offend('(out);', 2));
INSERT INTO fix_request VALUES ('smem-optin-attribute', 'launch', 1, 'smem-dynamic-over-48k-no-optin', 'safe');
INSERT INTO fix_request VALUES ('smem-optin-attribute', 'launch', 2, 'smem-dynamic-over-48k-no-optin', 'safe');
