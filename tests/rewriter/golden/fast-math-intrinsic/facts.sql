INSERT INTO file(path, lang, is_main, lines, parse_errors) VALUES ('input.cu', 'cuda', 1, 7, 0);
INSERT INTO call(id, kernel, file, line, begin_off, end_off, callee, callee_begin_off, callee_end_off, is_device_code)
VALUES (1, 'act', 'input.cu', 6, off('expf('), offend('expf(x[i])'), 'expf', off('expf('), off('expf(') + 4, 1),
       (2, 'act', 'input.cu', 6, off('logf('), offend('logf(x[i] + 1.0f)'), 'logf', off('logf('), off('logf(') + 4, 1),
       (3, 'act', 'input.cu', 6, off('sqrtf('), offend('sqrtf(x[i])'), 'sqrtf', off('sqrtf('), off('sqrtf(') + 5, 1);
INSERT INTO kernel(id, name, file, begin_off, end_off, kind) VALUES (1, 'act', 'input.cu', off('__global__'), offend('sqrtf(x[i]);') + 2, 'global');
INSERT INTO fix_request VALUES ('fast-math-intrinsic', 'kernel', 1, 'math-slow-transcendental', 'unsafe');
