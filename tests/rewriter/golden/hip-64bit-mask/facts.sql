INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'hip', 1, 8, 0);
INSERT INTO call(id, func, file, line, begin_off, end_off, callee, callee_begin_off, callee_end_off,
                 arg0_text, arg0_begin_off, arg0_end_off, category, mask_bits)
VALUES (1, 'warp_sum', 'input.cu', 5, off('__shfl_down_sync('), offend('v, o)'), '__shfl_down_sync',
        off('__shfl_down_sync('), off('__shfl_down_sync(') + 16, '0xffffffff', off('0xffffffff,'), off('0xffffffff,') + 10, 'warp', 32),
       (2, 'warp_sum', 'input.cu', 7, off('__shfl_sync('), offend('v, 0)'), '__shfl_sync',
        off('__shfl_sync('), off('__shfl_sync(') + 11, 'mask', off('mask, v'), off('mask, v') + 4, 'warp', 32);
INSERT INTO fix_request VALUES ('hip-64bit-mask', 'call', 1, 'hip-32bit-lane-mask', 'safe');
INSERT INTO fix_request VALUES ('hip-64bit-mask', 'call', 2, 'hip-32bit-lane-mask', 'safe');
