// RUN: mlc-opt %s --split-input-file --verify-diagnostics

llvm.func @unknown_key() {
  // expected-error@+1 {{not supported: 'licm' in #llvm.loop_annotation}}
  llvm.br ^bb1 loop_annotation = #llvm.loop_annotation<licm = #llvm.loop_licm<disable = true>>
^bb1:
  llvm.return
}

// -----

llvm.func @not_a_bool() {
  // expected-error@+1 {{expected 'true' or 'false' for 'disable'}}
  llvm.br ^bb1 loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = 1>>
^bb1:
  llvm.return
}

// -----

llvm.func @wrong_nested() {
  // expected-error@+1 {{expected #llvm.loop_vectorize for 'vectorize'}}
  llvm.br ^bb1 loop_annotation = #llvm.loop_annotation<vectorize = #llvm.loop_unroll<disable = true>>
^bb1:
  llvm.return
}

// -----

llvm.func @twice() {
  // expected-error@+1 {{'full' given twice in #llvm.loop_unroll}}
  llvm.br ^bb1 loop_annotation = #llvm.loop_annotation<unroll = #llvm.loop_unroll<full = true, full = false>>
^bb1:
  llvm.return
}

// -----

llvm.func @not_an_annotation() {
  // expected-error@+1 {{LLVM loop annotation}}
  llvm.br ^bb1 loop_annotation = #llvm.loop_unroll<disable = true>
^bb1:
  llvm.return
}
