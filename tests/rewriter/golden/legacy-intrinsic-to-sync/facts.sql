INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 21, 0);
INSERT INTO call(id, func, file, line, begin_off, end_off, callee, callee_begin_off, callee_end_off,
                 arg0_begin_off, category, is_legacy_intrinsic, in_divergent_branch)
VALUES (1, 'warp_sum', 'input.cu', 11, off('__shfl_down(v, o)'), offend('__shfl_down(v, o)'), '__shfl_down',
        off('__shfl_down(v, o)'), off('__shfl_down(v, o)') + 11, off('v, o)'), 'warp', 1, 0),
       (2, 'flag', 'input.cu', 19, off('__any(p)'), offend('__any(p)'), '__any',
        off('__any(p)'), off('__any(p)') + 5, off('p);', 2), 'vote', 1, 1);
INSERT INTO fix_request VALUES ('legacy-intrinsic-to-sync', 'call', 1, 'sync-legacy-warp-intrinsic', 'safe');
INSERT INTO fix_request VALUES ('legacy-intrinsic-to-sync', 'call', 2, 'sync-legacy-warp-intrinsic', 'safe');
