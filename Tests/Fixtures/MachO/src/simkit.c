// A framework built for the iOS Simulator (arm64) and copied into a device app by
// mistake (fixture for unsupported_architectures, ITMS-90087).
int simkit_answer(int x) { return x * 7; }
