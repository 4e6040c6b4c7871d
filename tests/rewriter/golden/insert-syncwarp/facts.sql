INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 18, 0);
INSERT INTO divergent_warp_code(id, kernel, file, line, begin_off, end_off, cond_text, n_shared_steps, uses_volatile, has_syncwarp)
VALUES (1, 'reduce', 'input.cu', 8, off('if (tid < 32)'), offend('s[tid + 1];') + 6, 'tid < 32', 6, 1, 0);
INSERT INTO fix_request VALUES ('insert-syncwarp', 'divergent_warp_code', 1, 'sync-warp-synchronous-without-syncwarp', 'safe');
