#if canImport(Glibc)
import Glibc
#endif

/// What the process says when it dies: one fixed line on stderr, nothing from memory.
///
/// The Swift runtime's crash reporter prints registers, stack contents and memory around
/// the faulting address, which can hold request and record data (a dog's home, a pet's
/// name). ``install()`` replaces its handlers for the fatal signals with one that writes
/// `scout: crashed; no request data is logged` and exits with status 70; it runs
/// on its own stack, so it works after a stack overflow too. Nothing else is printed.
public enum CrashReport {
    /// The signals handled.
    static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT]

    /// Installs the handler for every fatal signal (call once, early in `main`).
    public static func install() {
        let size = 1 << 16
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        stack.ss_size = size
        stack.ss_flags = 0
        sigaltstack(&stack, nil)
        for s in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in
                // Only async-signal-safe calls: a message in the binary's constant data, then _exit.
                let text: StaticString = "scout: crashed; no request data is logged\n"
                _ = write(2, text.utf8Start, text.utf8CodeUnitCount)
                _exit(70)
            }
            action.sa_flags = SA_ONSTACK
            sigemptyset(&action.sa_mask)
            sigaction(s, &action, nil)
        }
    }
}
