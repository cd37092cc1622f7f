import Glibc

/// Seconds on the monotonic clock, for uptime and stall timers that must not jump with the wall clock.
enum MonotonicClock {
    static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
