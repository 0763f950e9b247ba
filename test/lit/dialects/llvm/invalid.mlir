// RUN: mlc-opt %s --split-input-file --verify-diagnostics

llvm.func @constant_width() {
  // expected-error@+1 {{'llvm.mlir.constant' op attribute and type have different integer types: 'i32' vs. 'i64'}}
  %0 = llvm.mlir.constant(1 : i32) : i64
  llvm.return
}

// -----

llvm.func @constant_index() {
  // expected-error@+1 {{'llvm.mlir.constant' op attribute and type have different integer types: 'index' vs. 'i64'}}
  %0 = llvm.mlir.constant(3 : index) : i64
  llvm.return
}

// -----

llvm.func @constant_float() {
  // expected-error@+1 {{'llvm.mlir.constant' op attribute and type have different float semantics}}
  %0 = "llvm.mlir.constant"() <{value = 1.0 : f64}> : () -> f32
  llvm.return
}

// -----

func.func @index_operand(%a: index) {
  // expected-error@+1 {{'llvm.add' op operand #0 must be signless integer or LLVM dialect-compatible vector of signless integer}}
  %0 = llvm.add %a, %a : index
  return
}

// -----

llvm.func @fcmp_int(%a: i32) {
  // expected-error@+1 {{'llvm.fcmp' op operand #0 must be floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type}}
  %0 = llvm.fcmp "olt" %a, %a : i32
  llvm.return
}

// -----

llvm.func @fadd_mismatch(%a: f32, %b: f64) {
  // expected-error@+1 {{'llvm.fadd' op requires the same type for all operands and results}}
  %0 = "llvm.fadd"(%a, %b) : (f32, f64) -> f32
  llvm.return
}

// -----

llvm.func @icmp_result(%a: vector<2xi32>) {
  // expected-error@+1 {{'llvm.icmp' op failed to verify that result type has i1 element type and same shape as operands}}
  %0 = "llvm.icmp"(%a, %a) <{predicate = 0 : i64}> : (vector<2xi32>, vector<2xi32>) -> i1
  llvm.return
}

// -----

llvm.func @select_mismatch(%c: i1, %a: f32, %b: i32) {
  // expected-error@+1 {{'llvm.select' op failed to verify that all of {trueValue, falseValue, res} have same type}}
  %0 = "llvm.select"(%c, %a, %b) : (i1, f32, i32) -> f32
  llvm.return
}

// -----

llvm.func @trunc_wider(%a: i32) {
  // expected-error@+1 {{'llvm.trunc' op result type 'i64' must be narrower than operand type 'i32'}}
  %0 = llvm.trunc %a : i32 to i64
  llvm.return
}

// -----

llvm.func @zext_narrower(%a: i64) {
  // expected-error@+1 {{integer width of the output type is smaller or equal to the integer width of the input type}}
  %0 = llvm.zext %a : i64 to i32
  llvm.return
}

// -----

llvm.func @cast_shape(%a: vector<2xi32>) {
  // expected-error@+1 {{input and output vectors are of incompatible shape}}
  %0 = llvm.sext %a : vector<2xi32> to vector<4xi64>
  llvm.return
}

// -----

llvm.func @bitcast_size(%a: i32) {
  // expected-error@+1 {{'llvm.bitcast' op operand type 'i32' and result type 'f64' have different bit sizes}}
  %0 = llvm.bitcast %a : i32 to f64
  llvm.return
}

// -----

llvm.func @bitcast_ptr(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.bitcast' op can only cast pointers from and to pointers}}
  %0 = llvm.bitcast %p : !llvm.ptr to i64
  llvm.return
}

// -----

llvm.func @bitcast_addrspace(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.bitcast' op cannot cast pointers of different address spaces, use 'llvm.addrspacecast' instead}}
  %0 = llvm.bitcast %p : !llvm.ptr to !llvm.ptr<1>
  llvm.return
}

// -----

llvm.func @extractvalue_oob(%s: !llvm.struct<(i32, f32)>) {
  // expected-error@+1 {{'llvm.extractvalue' op position out of bounds: 2}}
  %0 = "llvm.extractvalue"(%s) <{position = array<i64: 2>}> : (!llvm.struct<(i32, f32)>) -> f32
  llvm.return
}

// -----

llvm.func @extractvalue_type(%s: !llvm.struct<(i32, f32)>) {
  // expected-error@+1 {{'llvm.extractvalue' op Type mismatch: extracting from '!llvm.struct<(i32, f32)>' should produce 'f32' but this op returns 'i32'}}
  %0 = "llvm.extractvalue"(%s) <{position = array<i64: 1>}> : (!llvm.struct<(i32, f32)>) -> i32
  llvm.return
}

// -----

llvm.func @extractvalue_scalar(%s: !llvm.struct<(i32, f32)>) {
  // expected-error@+1 {{'llvm.extractvalue' op expected LLVM IR structure/array type, got: 'i32'}}
  %0 = "llvm.extractvalue"(%s) <{position = array<i64: 0, 0>}> : (!llvm.struct<(i32, f32)>) -> i32
  llvm.return
}

// -----

llvm.func @insertvalue_type(%s: !llvm.array<2 x f32>, %x: i32) {
  // expected-error@+1 {{'llvm.insertvalue' op Type mismatch: cannot insert 'i32' into '!llvm.array<2 x f32>'}}
  %0 = "llvm.insertvalue"(%s, %x) <{position = array<i64: 0>}> : (!llvm.array<2 x f32>, i32) -> !llvm.array<2 x f32>
  llvm.return
}

// -----

llvm.func @insertvalue_position(%s: !llvm.array<2 x f32>, %x: f32) {
  // expected-error@+1 {{position out of bounds: 5}}
  %0 = llvm.insertvalue %x, %s[5] : !llvm.array<2 x f32>
  llvm.return
}

// -----

llvm.func @shuffle_mask(%v: vector<2xf32>) {
  // expected-error@+1 {{'llvm.shufflevector' op mask index 4 is out of range for two vectors of 2 elements}}
  %0 = llvm.shufflevector %v, %v [0, 4] : vector<2xf32>
  llvm.return
}

// -----

llvm.func @shuffle_result(%v: vector<2xf32>) {
  // expected-error@+1 {{'llvm.shufflevector' op expected result type 'vector<3xf32>'}}
  %0 = "llvm.shufflevector"(%v, %v) <{mask = array<i32: 0, 1, 2>}> : (vector<2xf32>, vector<2xf32>) -> vector<2xf32>
  llvm.return
}

// -----

llvm.func @extractelement_type(%v: vector<2xf32>, %i: i32) {
  // expected-error@+1 {{'llvm.extractelement' op failed to verify that result type matches vector element type}}
  %0 = "llvm.extractelement"(%v, %i) : (vector<2xf32>, i32) -> i32
  llvm.return
}

// -----

llvm.func @insertelement_type(%v: vector<2xf32>, %x: i32, %i: i32) {
  // expected-error@+1 {{'llvm.insertelement' op failed to verify that argument type matches vector element type}}
  %0 = "llvm.insertelement"(%v, %x, %i) : (vector<2xf32>, i32, i32) -> vector<2xf32>
  llvm.return
}

// -----

llvm.func @br_count(%x: i32) {
  // expected-error@+1 {{branch has 0 operands for successor #0, but target block has 1}}
  llvm.br ^bb1
^bb1(%y: i32):
  llvm.return
}

// -----

llvm.func @br_type(%x: i32) {
  // expected-error@+1 {{type mismatch for bb argument #0 of successor #0}}
  llvm.br ^bb1(%x : i32)
^bb1(%y: i64):
  llvm.return
}

// -----

llvm.func @cond_br_weights(%c: i1) {
  // expected-error@+1 {{expects number of branch weights to match number of successors: 3 vs 2}}
  llvm.cond_br %c weights([1, 2, 3]), ^bb1, ^bb1
^bb1:
  llvm.return
}

// -----

llvm.func @cond_br_operands(%c: i1, %x: f32) {
  // expected-error@+1 {{branch has 1 operands for successor #1, but target block has 0}}
  llvm.cond_br %c, ^bb1, ^bb2(%x : f32)
^bb1:
  llvm.return
^bb2:
  llvm.return
}

// -----

llvm.func @switch_cases(%v: i32) {
  // expected-error@+1 {{'llvm.switch' op expects number of case values to match number of case destinations}}
  "llvm.switch"(%v)[^bb1, ^bb1, ^bb1] <{case_values = dense<1> : vector<1xi32>, case_operand_segments = array<i32: 0, 0>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  llvm.return
}

// -----

llvm.func @switch_case_type(%v: i32) {
  // expected-error@+1 {{expects case value type to match condition value type}}
  "llvm.switch"(%v)[^bb1, ^bb1] <{case_values = dense<1> : vector<1xi64>, case_operand_segments = array<i32: 0>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  llvm.return
}

// -----

llvm.func @switch_operands(%v: i32, %x: f32) {
  // expected-error@+1 {{branch has 1 operands for successor #1, but target block has 0}}
  llvm.switch %v : i32, ^bb1 [
    1: ^bb1(%x : f32)
  ]
^bb1:
  llvm.return
}

// -----

// expected-note@+1 {{when returning from function}}
llvm.func @return_type(%x: i32) -> f32 {
  // expected-error@+1 {{'llvm.return' op mismatching result types}}
  llvm.return %x : i32
}

// -----

// expected-note@+1 {{when returning from function}}
llvm.func @return_void(%x: i32) {
  // expected-error@+1 {{'llvm.return' op expected no operands}}
  llvm.return %x : i32
}

// -----

// expected-note@+1 {{when returning from function}}
llvm.func @return_missing() -> i32 {
  // expected-error@+1 {{'llvm.return' op expected 1 operand}}
  llvm.return
}

// -----

// expected-error@+1 {{'llvm.func' op entry block must have 1 arguments to match function signature}}
"llvm.func"() <{function_type = !llvm.func<void (i32)>, sym_name = "entry_args", linkage = #llvm.linkage<external>}> ({
  "llvm.return"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{'llvm.func' op type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"llvm.func"() <{function_type = !llvm.func<void (i32)>, sym_name = "entry_types", linkage = #llvm.linkage<external>}> ({
^bb0(%a: i64):
  "llvm.return"() : () -> ()
}) : () -> ()

// -----

// expected-error@+1 {{'llvm.func' op external functions must have 'external' or 'extern_weak' linkage}}
llvm.func internal @decl_internal(i32)

// -----

// expected-error@+1 {{'llvm.func' op functions cannot have 'common' linkage}}
llvm.func common @common_fn() {
  llvm.return
}

// -----

// expected-error@+1 {{failed to construct function type: expected LLVM type for function arguments}}
llvm.func @index_arg(index)

// -----

llvm.func @call_undefined() {
  // expected-error@+1 {{'llvm.call' op 'missing' does not reference a symbol in the current scope}}
  llvm.call @missing() : () -> ()
  llvm.return
}

// -----

llvm.mlir.global external @not_a_function() {addr_space = 0 : i32} : i32

llvm.func @call_global() {
  // expected-error@+1 {{'llvm.call' op 'not_a_function' does not reference a valid LLVM function}}
  llvm.call @not_a_function() : () -> ()
  llvm.return
}

// -----

llvm.func @callee(i32, f32) -> i32

llvm.func @call_count(%a: i32) {
  // expected-error@+1 {{'llvm.call' op incorrect number of operands for callee: expected 2, but got 1}}
  %0 = llvm.call @callee(%a) : (i32) -> i32
  llvm.return
}

// -----

llvm.func @callee(i32, f32) -> i32

llvm.func @call_operand_type(%a: i32) {
  // expected-error@+1 {{'llvm.call' op operand type mismatch: expected operand type 'f32', but provided 'i32' for operand number 1}}
  %0 = llvm.call @callee(%a, %a) : (i32, i32) -> i32
  llvm.return
}

// -----

llvm.func @callee(i32) -> i32

llvm.func @call_result_type(%a: i32) {
  // expected-error@+1 {{'llvm.call' op result type mismatch: 'i64' != 'i32'}}
  %0 = llvm.call @callee(%a) : (i32) -> i64
  llvm.return
}

// -----

llvm.func @callee(i32) -> i32

llvm.func @call_no_result(%a: i32) {
  // expected-error@+1 {{'llvm.call' op expected function call to produce a value}}
  llvm.call @callee(%a) : (i32) -> ()
  llvm.return
}

// -----

llvm.func @callee(i32)

llvm.func @call_void_result(%a: i32) {
  // expected-error@+1 {{'llvm.call' op calling function with void result must not produce values}}
  %0 = llvm.call @callee(%a) : (i32) -> i32
  llvm.return
}

// -----

llvm.func @printf(!llvm.ptr, ...) -> i32

llvm.func @call_vararg(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.call' op missing var_callee_type attribute for vararg call}}
  %0 = llvm.call @printf(%p) : (!llvm.ptr) -> i32
  llvm.return
}

// -----

llvm.func @call_indirect(%f: i64) {
  // expected-error@+1 {{'llvm.call' op indirect call expects a pointer as callee}}
  "llvm.call"(%f) <{operandSegmentSizes = array<i32: 1, 0>, op_bundle_sizes = array<i32>}> : (i64) -> ()
  llvm.return
}

// -----

llvm.func @addressof_undefined() {
  // expected-error@+1 {{'llvm.mlir.addressof' op must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'}}
  %0 = llvm.mlir.addressof @nothing : !llvm.ptr
  llvm.return
}

// -----

llvm.mlir.global external @g1() {addr_space = 1 : i32} : i32

llvm.func @addressof_space() {
  // expected-error@+1 {{'llvm.mlir.addressof' op pointer address space must match address space of the referenced global}}
  %0 = llvm.mlir.addressof @g1 : !llvm.ptr
  llvm.return
}

// -----

// expected-error@+1 {{'llvm.mlir.global' op requires an i8 array type of the length equal to that of the string attribute}}
llvm.mlir.global internal constant @str("abc") : !llvm.array<2 x i8>

// -----

// expected-error@+1 {{'llvm.mlir.global' op cannot have both initializer value and region}}
llvm.mlir.global internal @both(0 : i32) : i32 {
  %0 = llvm.mlir.constant(1 : i32) : i32
  llvm.return %0 : i32
}

// -----

// expected-error@+1 {{'llvm.mlir.global' op initializer region type 'i64' does not match global type 'i32'}}
llvm.mlir.global internal @init_type() : i32 {
  %0 = llvm.mlir.constant(1 : i64) : i64
  llvm.return %0 : i64
}

// -----

// expected-error@+1 {{type can only be omitted for string globals}}
llvm.mlir.global internal @untyped(0 : i32)

// -----

// expected-error@+1 {{'llvm.mlir.global' op expects type to be a valid element type for an LLVM global}}
llvm.mlir.global internal @void_global() : !llvm.void

// -----

llvm.func @global_in_func() {
  // expected-error@+1 {{'llvm.mlir.global' op expects parent op 'builtin.module'}}
  llvm.mlir.global internal @nested(0 : i32) : i32
  llvm.return
}

// -----

llvm.func @gep_struct_dynamic(%p: !llvm.ptr, %i: i32) {
  // expected-error@+1 {{'llvm.getelementptr' op expected index 1 indexing a struct to be constant}}
  %0 = llvm.getelementptr %p[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.struct<(i32, f32)>
  llvm.return
}

// -----

llvm.func @gep_struct_bounds(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.getelementptr' op index 1 indexing a struct is out of bounds}}
  %0 = llvm.getelementptr %p[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f32)>
  llvm.return
}

// -----

llvm.func @gep_scalar(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.getelementptr' op type 'i32' cannot be indexed (index #1)}}
  %0 = llvm.getelementptr %p[0, 1] : (!llvm.ptr) -> !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @gep_dynamic_count(%p: !llvm.ptr, %i: i64) {
  // expected-error@+1 {{'llvm.getelementptr' op expected as many dynamic indices as specified in 'rawConstantIndices'}}
  %0 = "llvm.getelementptr"(%p, %i) <{elem_type = f32, rawConstantIndices = array<i32: 1>}> : (!llvm.ptr, i64) -> !llvm.ptr
  llvm.return
}

// -----

llvm.func @load_atomic(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.load' op expected alignment for atomic access}}
  %0 = llvm.load %p atomic monotonic : !llvm.ptr -> i32
  llvm.return
}

// -----

llvm.func @load_release(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.load' op unsupported ordering 'release'}}
  %0 = llvm.load %p atomic release <alignment = 4> : !llvm.ptr -> i32
  llvm.return
}

// -----

llvm.func @store_acquire(%p: !llvm.ptr, %v: i32) {
  // expected-error@+1 {{'llvm.store' op unsupported ordering 'acquire'}}
  llvm.store %v, %p atomic acquire <alignment = 4> : i32, !llvm.ptr
  llvm.return
}

// -----

llvm.func @load_syncscope(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.load' op expected syncscope to be null for non-atomic access}}
  %0 = "llvm.load"(%p) <{syncscope = "agent"}> : (!llvm.ptr) -> i32
  llvm.return
}

// -----

llvm.func @load_void(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.load' op type must be LLVM type with size, but got '!llvm.void'}}
  %0 = llvm.load %p : !llvm.ptr -> !llvm.void
  llvm.return
}

// -----

llvm.func @alloca_void(%n: i64) {
  // expected-error@+1 {{'llvm.alloca' op expected a sized element type, got '!llvm.void'}}
  %0 = llvm.alloca %n x !llvm.void : (i64) -> !llvm.ptr
  llvm.return
}

// -----

llvm.func @memcpy_len(%p: !llvm.ptr, %n: i8) {
  // expected-error@+1 {{'llvm.intr.memcpy' op expected the length to be i32 or i64, got 'i8'}}
  "llvm.intr.memcpy"(%p, %p, %n) <{isVolatile = false}> : (!llvm.ptr, !llvm.ptr, i8) -> ()
  llvm.return
}

// -----

llvm.func @fma_types(%a: f32, %b: f64) {
  // expected-error@+1 {{'llvm.intr.fma' op requires the same type for all operands and results}}
  %0 = "llvm.intr.fma"(%a, %b, %a) : (f32, f64, f32) -> f32
  llvm.return
}

// -----

llvm.func @bad_predicate(%a: i32) {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]}}
  %0 = llvm.icmp "lt" %a, %a : i32
  llvm.return
}

// -----

llvm.func @bad_fastmath(%a: f32) {
  // expected-error@+1 {{expected ::mlir::LLVM::FastmathFlags to be one of: none, nnan, ninf, nsz, arcp, contract, afn, reassoc, fast}}
  %0 = llvm.fadd %a, %a fastmath<quick> : f32
  llvm.return
}

// -----

// expected-error@+1 {{invalid LLVM structure element type: '!llvm.void'}}
llvm.func @bad_struct(!llvm.struct<(i32, void)>)

// -----

// expected-error@+1 {{invalid array element type: 'index'}}
llvm.func @bad_array(!llvm.array<2 x index>)

// -----

// expected-error@+1 {{invalid function result type: '!llvm.func<void ()>'}}
llvm.func @bad_func_type(!llvm.func<func<void ()> ()>)

// -----

llvm.func @extractelement_scalar(%f: f32, %i: i32) {
  // expected-error@+1 {{expected LLVM dialect-compatible vector type, got 'f32'}}
  %0 = llvm.extractelement %f[%i : i32] : f32
  llvm.return
}

// -----

llvm.func @extractvalue_position(%s: !llvm.struct<(i32)>) {
  // expected-error@+1 {{position out of bounds: 5}}
  %0 = llvm.extractvalue %s[5] : !llvm.struct<(i32)>
  llvm.return
}

// -----

llvm.func @insertvalue_empty_position(%s: !llvm.struct<(i32)>, %x: i32) {
  // expected-error@+1 {{expected a non-empty position}}
  %0 = llvm.insertvalue %x, %s[] : !llvm.struct<(i32)>
  llvm.return
}

// -----

llvm.func @switch_duplicate(%v: i32) {
  // expected-error@+1 {{'llvm.switch' op expects case values to be unique}}
  llvm.switch %v : i32, ^bb1 [
    1: ^bb1,
    1: ^bb1
  ]
^bb1:
  llvm.return
}

// -----

llvm.func @load_unsupported_property(%p: !llvm.ptr) {
  // expected-error@+1 {{not supported: 'tbaa' in llvm memory access properties}}
  %0 = llvm.load %p <tbaa = 1> : !llvm.ptr -> f32
  llvm.return
}

// -----

// expected-error@+1 {{not supported: recursive identified struct references}}
llvm.func @recursive_struct(!llvm.struct<"node", (ptr, struct<"node">)>)

// -----

// expected-error@+1 {{'llvm.func' op expects argument attribute array to have the same number of elements as the number of function arguments, got 2, but expected 1}}
"llvm.func"() <{function_type = !llvm.func<void (i32)>, sym_name = "arg_attrs", linkage = #llvm.linkage<external>, arg_attrs = [{}, {}]}> ({
}) : () -> ()

// -----

llvm.func @printf(!llvm.ptr, ...) -> i32

llvm.func @call_vararg_type(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.call' op var_callee_type '!llvm.func<i32 (ptr, i32, ...)>' does not match the callee type '!llvm.func<i32 (ptr, ...)>'}}
  %0 = llvm.call @printf(%p) vararg(!llvm.func<i32 (ptr, i32, ...)>) : (!llvm.ptr) -> i32
  llvm.return
}

// -----

llvm.func @gep_result(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.getelementptr' op result type 'vector<2x!llvm.ptr>' does not match the base and indices}}
  %0 = llvm.getelementptr %p[1] : (!llvm.ptr) -> vector<2x!llvm.ptr>, f32
  llvm.return
}

// -----

// expected-error@+1 {{'llvm.mlir.global' op cannot have 'common' linkage and be constant}}
llvm.mlir.global common constant @common_const(0 : i32) : i32

// -----

// expected-error@+1 {{'llvm.mlir.global' op not supported: thread-local mode 2}}
"llvm.mlir.global"() <{global_type = i32, linkage = #llvm.linkage<external>, sym_name = "tls2", tls_mode = 2 : i64}> ({
}) : () -> ()

// -----

llvm.func @overflow_flags(%a: i32) {
  // expected-error@+1 {{'llvm.add' op attribute 'overflowFlags' failed to satisfy constraint: LLVM integer overflow flags}}
  %0 = "llvm.add"(%a, %a) <{overflowFlags = 7 : i32}> : (i32, i32) -> i32
  llvm.return
}

// -----

llvm.func @exp_int(%a: i32) {
  // expected-error@+1 {{'llvm.intr.exp' op operand #0 must be floating point LLVM type}}
  %0 = llvm.intr.exp(%a) : (i32) -> i32
  llvm.return
}

// -----

llvm.func @memset_value(%p: !llvm.ptr, %v: i32, %n: i64) {
  // expected-error@+1 {{'llvm.intr.memset' op operand #1 must be 8-bit signless integer}}
  "llvm.intr.memset"(%p, %v, %n) <{isVolatile = false}> : (!llvm.ptr, i32, i64) -> ()
  llvm.return
}

// -----

llvm.func @select_shape(%c: vector<2xi1>, %a: vector<4xf32>) {
  // expected-error@+1 {{'llvm.select' op expected a vector condition to have the shape of the values}}
  %0 = llvm.select %c, %a, %a : vector<2xi1>, vector<4xf32>
  llvm.return
}

// -----

llvm.func @load_ordering(%p: !llvm.ptr) {
  // expected-error@+1 {{'llvm.load' op invalid atomic ordering 3}}
  %0 = "llvm.load"(%p) <{alignment = 4 : i64, ordering = 3 : i64}> : (!llvm.ptr) -> i32
  llvm.return
}
