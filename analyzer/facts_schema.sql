-- analyzer/facts_schema.sql: the facts database, the rules' input.
-- One table per entity.  Every table that a rule can use as its `scope`
-- carries a location (file, line, col, end_line, end_col: 1-based, columns in
-- bytes; begin_off/end_off: byte offsets into the file, end exclusive) and the
-- kernel it belongs to (`kernel`: name, NULL for host code).  Booleans are
-- 0/1.  NULL always means "unknown" — never a guess.  docs/facts.md explains
-- every column.

CREATE TABLE arch(
  name TEXT, vendor TEXT, warp_size INT, smem_banks INT, bank_bytes INT,
  smem_per_block INT, smem_per_block_optin INT, smem_per_sm INT,
  regs_per_sm INT, max_regs_per_thread INT, max_threads_per_block INT,
  max_threads_per_sm INT, max_blocks_per_sm INT, sm_count INT, l2_bytes INT,
  sector_bytes INT);

CREATE TABLE file(
  path TEXT PRIMARY KEY, lang TEXT, is_main INT, lines INT, parse_errors INT);

CREATE TABLE line(                    -- source text, for regexp() conditions
  file TEXT, line INT, text TEXT, PRIMARY KEY(file, line));

CREATE TABLE diag(                    -- clang's diagnostics (warnings, errors)
  file TEXT, line INT, col INT, severity TEXT, message TEXT);

CREATE TABLE kernel(
  id INTEGER PRIMARY KEY, name TEXT, mangled TEXT, kind TEXT,  -- kind: global|device
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  body_begin_off INT,                  -- offset of the body's '{'
  decl_begin_off INT,                  -- start of the declaration (attributes included)
  kernel TEXT,                         -- = name (uniform location columns)
  lang TEXT, is_template INT, nparams INT,
  launch_bounds_max INT, launch_bounds_min_blocks INT,
  static_smem_bytes INT, uses_dynamic_smem INT,
  block_x INT, block_y INT, block_z INT, block_threads INT,
  block_source TEXT,                   -- launch|launch_bounds|assumed
  n_launch_sites INT, launch_sites_agree INT, max_launch_dyn_smem INT,
  n_barriers INT, n_accesses INT, n_loops INT, uses_warp_intrinsics INT,
  has_bounds_guard INT,                -- a thread-dependent guard against a parameter
  regs INT, spills_bytes INT, ptxas_smem INT,   -- from --ptxas, else NULL
  occ_blocks_threads INT, occ_blocks_smem INT, occ_blocks_regs INT,
  occ_blocks INT, occupancy REAL, occ_limiter TEXT,
  stack_bytes INT);                    -- ptxas stack frame per thread (local memory), else NULL

CREATE TABLE param(
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, idx INT, name TEXT, type TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  is_pointer INT, is_const_pointee INT, is_restrict INT, elem_bytes INT,
  is_read INT, is_written INT, is_integer INT, int_bits INT, is_unsigned INT,
  n_loop_reads INT);                   -- reads of this pointer inside loops

CREATE TABLE access(
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, func TEXT,  -- func: where written (device fn)
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  space TEXT,                          -- global|shared|local|constant|unknown
  rw TEXT,                             -- read|write|readwrite
  base TEXT, base_is_param INT, base_array TEXT,  -- base_array: shared/local array id name
  elem_bytes INT, access_bytes INT,    -- element stride, bytes moved per lane
  struct_bytes INT, field TEXT,        -- AoS: p[i].field
  index_text TEXT, affine TEXT,        -- source index, normal form (or NULL)
  is_affine INT,
  coef_tx INT, coef_ty INT, coef_tz INT,            -- element coefficients when constant
  kind_tx TEXT, kind_ty TEXT, kind_tz TEXT,         -- zero|const|symbolic|nonaffine
  coef_tx_text TEXT,                   -- symbolic coefficient, e.g. "N"
  offset_const INT,                    -- constant term in elements, when known
  thread_dependent INT, warp_uniform INT, block_uniform INT,
  data_dependent INT,                  -- index depends on a loaded value
  stride_bytes_tx INT,                 -- address step between lanes tx, tx+1
  lanes INT,                           -- active lanes modelled (<= warp size)
  sectors_per_request INT, ideal_sectors INT, bytes_per_request INT,
  sectors_assumed INT,                 -- 1 when a symbolic width was assumed
  bank_ways INT, ideal_bank_ways INT,  -- shared only
  in_loop INT, loop_depth INT, loop_id INT, loop_invariant INT,
  in_divergent_branch INT, guarded INT,
  vector_width INT,                    -- lanes of a vector type (float4: 4)
  block_source TEXT, assumption TEXT); -- what the warp model assumed, if anything

CREATE TABLE shared_array(
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, name TEXT, type TEXT, elem_type TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  elem_bytes INT, ndims INT, dim0 INT, dim1 INT, dim2 INT, dims TEXT, bytes INT,
  is_dynamic INT, is_file_scope INT, is_volatile INT,
  inner_dim_begin_off INT, inner_dim_end_off INT,  -- the innermost [N] text range
  is_reinterpreted INT,                -- cast, address taken into another type
  max_bank_ways INT);

CREATE TABLE local_array(
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, name TEXT, type TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  elem_bytes INT, elems INT, bytes INT, dynamic_index INT, n_dynamic_accesses INT);

CREATE TABLE constant_var(
  id INTEGER PRIMARY KEY, name TEXT, type TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  bytes INT, kernel TEXT);

CREATE TABLE loop(
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, func TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  kind TEXT,                           -- for|while|do
  iv TEXT, iv_unsigned INT, init_text TEXT, bound_text TEXT, step_text TEXT,
  trip_count INT, trip_uniform INT, trip_thread_dependent INT, trip_data_dependent INT,
  has_unroll_pragma INT, unroll_count INT, depth INT, parent_id INT,
  has_barrier INT, n_accesses INT, is_grid_stride INT);

CREATE TABLE branch(
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, func TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  cond_text TEXT, kind TEXT,           -- if|ternary|switch|loop_cond
  uniformity TEXT,                     -- thread|warp|block|grid
  thread_dependent INT, warp_uniform INT, block_uniform INT,
  lane_parity INT,                     -- depends on low lane bits (tid % k, tid & m)
  data_dependent INT, has_else INT, then_stmts INT, else_stmts INT,
  then_has_barrier INT, else_has_barrier INT, depth INT, in_loop INT,
  is_guard INT,                        -- tid-vs-parameter bounds guard
  is_early_return INT);                -- the body is just `return`

CREATE TABLE barrier(
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, func TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  name TEXT, kind TEXT,                -- block|warp|fence|grid
  in_divergent_branch INT,             -- under a thread-dependent condition
  divergence TEXT,                     -- thread|warp|NULL
  divergent_branch_line INT,
  after_divergent_return INT, divergent_return_line INT,
  in_loop INT, in_nonuniform_loop INT,
  is_last_stmt INT, follows_barrier INT);      -- redundancy hints

CREATE TABLE early_return(
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, func TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  cond_text TEXT, thread_dependent INT, uniformity TEXT,
  before_barrier INT, barrier_line INT,
  if_begin_off INT, if_end_off INT,    -- the `if (...) return` statement (end before its `;`)
  cond_begin_off INT, cond_end_off INT);

CREATE TABLE atomic(
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, func TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  op TEXT, space TEXT, base TEXT, elem_type TEXT, is_float INT,
  address_uniform INT, address_thread_dependent INT, address_data_dependent INT,
  address_small_range INT,             -- index masked/modded into few bins
  value_uniform INT, value_const INT, in_loop INT, index_text TEXT);

CREATE TABLE call(
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, func TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  callee TEXT,
  callee_begin_off INT, callee_end_off INT,   -- the callee name token
  category TEXT,                       -- math|fast_math|warp|vote|sync|fence|atomic|
                                       -- host_api|device_fn|other
  is_device_code INT, is_legacy_intrinsic INT,
  in_loop INT, loop_depth INT, in_divergent_branch INT, divergence TEXT,
  nargs INT, args_text TEXT,
  arg0_text TEXT, arg0_begin_off INT, arg0_end_off INT, arg0_type TEXT,
  arg1_text TEXT, arg1_begin_off INT, arg1_end_off INT, arg1_type TEXT,
  arg1_const REAL,                     -- folded second argument (pow exponent...)
  arg_is_float INT,                    -- first argument's type is float
  returns_double INT, result_type TEXT,
  mask_text TEXT, mask_is_full INT, mask_bits INT,   -- warp intrinsics
  result_checked INT,                  -- host API: return value used
  host_ptr_kind TEXT,                  -- cudaMemcpy: malloc|pinned|stack|unknown
  in_host_loop_with_launch INT);

CREATE TABLE literal(
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, func TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  text TEXT, kind TEXT,                -- double|float|int
  promotes_to_double INT,              -- a float operand is widened because of it
  in_loop INT, in_macro INT);

CREATE TABLE launch(
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, func TEXT,  -- func: host caller
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  api TEXT,                            -- chevron|hipLaunchKernelGGL
  grid_text TEXT, block_text TEXT, smem_text TEXT, stream_text TEXT,
  grid_x INT, grid_y INT, grid_z INT, grid_blocks INT,
  block_x INT, block_y INT, block_z INT, block_threads INT,
  block_begin_off INT, block_end_off INT, grid_begin_off INT, grid_end_off INT,
  grid_is_ceil_div INT,                -- (n + B - 1) / B shape
  dyn_smem INT, smem_optin INT,        -- cudaFuncSetAttribute seen before it
  in_loop INT, checked_after INT,      -- cudaGetLastError / check after the launch
  stmt_begin_off INT, stmt_end_off INT,
  func_begin_off INT);                 -- start of the host function (to insert before)

CREATE TABLE divergent_warp_code(      -- warp-synchronous code without __syncwarp
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, func TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  cond_text TEXT, n_shared_steps INT, uses_volatile INT, has_syncwarp INT);

CREATE TABLE reduction_loop(           -- tree reduction in shared memory
  id INTEGER PRIMARY KEY, kernel_id INT, kernel TEXT, func TEXT,
  file TEXT, line INT, col INT, end_line INT, end_col INT, begin_off INT, end_off INT,
  style TEXT,                          -- interleaved|interleaved_index|sequential
  array TEXT, iv TEXT);
