// A framework still carrying embedded bitcode: Xcode before 14 wrote a xar archive into
// `__LLVM,__bundle`. LLD drops `__LLVM` sections of objects, so make-fixtures.sh adds the
// section with -sectcreate from src/bitcode-bundle.bin, a xar header stub (fixture for
// embedded_bitcode, ITMS-90482).
int bitkit_answer(int x) { return x + 1; }
