"""The one Python client of `scout serve` (JSON Lines over stdin/stdout, docs/protocol.md).

    from scout_client import Serve
    with Serve(".build/debug/scout", ["--data", "data", "--load", "data/sample/dogs.jsonl"]) as s:
        s.wait_ready()                                  # a ping: waits for the load
        line = s.ask({"op": "stats"})                   # one request, its answer line (bytes)
        answers, seconds = s.stream(requests)           # all written by a thread, answers read in bulk

Every driver of the worker uses it: scripts/crash_test.py, scripts/source_test.py,
scripts/bench_filters_streamed.py, Benchmarks/peers/durability.py and Benchmarks/peers/scout.py
(the peers runner, filtered_nearest.py and the notebooks through it). Benchmarks/peers/common.py
puts this directory on sys.path.

Answers are read straight from the pipe's file descriptor into one buffer: a line costs one
read for a round trip, and a stream costs one read per 64 KiB chunk (lines are split after the
clock stops). A worker that ends, or does not answer within a timeout, raises ServeError with the
end of its stderr: a SystemExit, so a script stops with that message and no traceback.
"""
from __future__ import annotations

import io
import json
import os
import select
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Iterable

CHUNK = 1 << 16
LINES = "lines"                     # stderr kept in memory, line by line (Serve.stderr_lines)
_ENCODER = json.JSONEncoder(separators=(",", ":"))


class ServeError(SystemExit):
    """The worker ended, or a pipe to it broke; the message ends with its stderr's last lines."""


class ServeTimeout(ServeError):
    """No answer line within the timeout."""


def encode(request) -> bytes:
    """One request line: a dict as compact JSON; a str or bytes as it is. Ends with a newline."""
    if isinstance(request, dict):
        return (_ENCODER.encode(request) + "\n").encode()
    if isinstance(request, str):
        request = request.encode()
    return request if request.endswith(b"\n") else request + b"\n"


class Serve:
    """A `scout serve` child process driven through its pipes.

    binary, args: `binary serve *args`. env: variables added to this process's environment.
    cwd: the worker's directory. stderr: LINES (default: drained by a thread into
    `stderr_lines`), a path (appended to), or subprocess.DEVNULL. label: how errors name the
    driver ("crash_test: scout serve ended ...").
    """

    def __init__(self, binary, args: Iterable[str] = (), *, env: dict | None = None, cwd=None,
                 stderr=LINES, label: str = "scout"):
        self.label = label
        self.stderr_lines: list[str] = []
        self.stderr_path: Path | None = None
        self._drain = None
        if stderr == LINES:
            err = subprocess.PIPE
        elif isinstance(stderr, (str, Path)):
            self.stderr_path = Path(stderr)
            err = open(self.stderr_path, "ab")
        else:
            err = stderr
        self.started = time.monotonic()
        self.proc = subprocess.Popen([str(binary), "serve", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=err, bufsize=0, cwd=cwd,
                                     env=None if env is None else {**os.environ, **env})
        if self.stderr_path is not None:
            err.close()                 # the child holds its own descriptor
        elif stderr == LINES:
            self._drain = threading.Thread(target=self._drain_stderr, daemon=True)
            self._drain.start()
        self.pid = self.proc.pid
        self._write = self.proc.stdin.write
        self._fd = self.proc.stdout.fileno()
        self._buf = bytearray()         # read from stdout, not yet returned

    # -- one request at a time -----------------------------------------------------------

    def send(self, request) -> None:
        """Writes one request line (see encode)."""
        self.write(encode(request))

    def write(self, data: bytes) -> None:
        """Writes bytes to the worker's stdin, all of them."""
        try:
            n = self._write(data)
            if n != len(data):
                view = memoryview(data)[n:]
                while view:
                    view = view[self._write(view):]
        except (BrokenPipeError, ValueError):
            raise self._failure("stopped reading its requests") from None

    def read_line(self, timeout: float | None = None) -> bytes:
        """The next answer line, without its newline; ServeTimeout after `timeout` seconds."""
        buf = self._buf
        i = buf.find(b"\n")
        if i < 0:
            deadline = None if timeout is None else time.monotonic() + timeout
            while i < 0:
                seen = len(buf)
                self._fill(deadline)
                i = buf.find(b"\n", seen)
        line = bytes(buf[:i])
        del buf[:i + 1]
        return line

    def ask(self, request, timeout: float | None = None) -> bytes:
        """Sends one request and returns its answer line (bytes, no newline)."""
        self.send(request)
        return self.read_line(timeout)

    def ask_json(self, request, timeout: float | None = None) -> dict:
        """ask, with the answer parsed."""
        return json.loads(self.ask(request, timeout))

    def wait_ready(self, timeout: float | None = None) -> dict:
        """Pings and waits for the answer (the worker loads its catalogue first); sets
        `ready_seconds`, the time from start to that answer."""
        answer = self.ask_json({"id": "ready", "op": "ping"}, timeout)
        if not answer.get("ok"):
            raise self._failure(f"did not answer ping: {answer}")
        self.ready_seconds = time.monotonic() - self.started
        return answer

    # -- many requests -------------------------------------------------------------------

    def stream(self, requests: Iterable) -> tuple[list[bytes], float]:
        """Writes every request at once, from a thread (so neither pipe can fill up while
        nobody reads), and reads as many answer lines. Returns the lines (bytes, no newline)
        and the seconds from the first write to the last answer."""
        blob = b"".join(encode(r) for r in requests)
        n = blob.count(b"\n")
        if n == 0:
            return [], 0.0
        started = []

        def writer():
            started.append(time.perf_counter())
            try:
                self.write(blob)
            except ServeError:
                pass                        # the reader reports it, with the worker's stderr
        t = threading.Thread(target=writer, daemon=True)
        t.start()
        data = self._take_lines(n)
        end = time.perf_counter()
        t.join()
        lines = data.split(b"\n")
        lines.pop()
        return lines, end - started[0]

    def feed(self, requests: Iterable) -> threading.Thread:
        """Writes requests one line at a time from a daemon thread (started, returned) until
        the iterable ends or the worker stops reading (then it ends quietly)."""
        def writer():
            write = self._write
            try:
                for r in requests:
                    write(encode(r))
            except (BrokenPipeError, OSError, ValueError):
                pass
        t = threading.Thread(target=writer, daemon=True)
        t.start()
        return t

    def collect(self, into: list) -> threading.Thread:
        """Appends answer lines (bytes, no newline) to `into` from a daemon thread (started,
        returned) until stdout ends; a partial last line is dropped."""
        def reader():
            buf = bytes(self._buf)
            self._buf = bytearray()
            read, fd = os.read, self._fd
            while True:
                try:
                    chunk = read(fd, CHUNK)
                except OSError:
                    return
                if not chunk:
                    return
                buf += chunk
                *lines, buf = buf.split(b"\n")
                into.extend(lines)
        t = threading.Thread(target=reader, daemon=True)
        t.start()
        return t

    # -- stopping ------------------------------------------------------------------------

    def close(self, timeout: float = 60) -> int:
        """Closes stdin (the worker finishes and exits) and waits; SIGKILL after `timeout`
        seconds. Returns the exit status."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        return self._wait_or_kill(timeout)

    def terminate(self, timeout: float = 30) -> int:
        """SIGTERM, then SIGKILL after `timeout` seconds. Returns the exit status."""
        if self.proc.poll() is None:
            self.proc.terminate()
        return self._wait_or_kill(timeout)

    def _wait_or_kill(self, timeout: float) -> int:
        """Waits for the worker to exit; SIGKILL after `timeout` seconds. Returns the exit status."""
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return self.kill()
        self._join_stderr()
        return self.proc.returncode

    def kill(self) -> int:
        """SIGKILL (our own child, by its Popen handle) and wait. Returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self._join_stderr()
        return self.proc.returncode

    def __enter__(self) -> "Serve":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- stderr and failures -------------------------------------------------------------

    def stderr_tail(self, n: int = 10) -> list[str]:
        """The last n lines the worker wrote to stderr (none when stderr was not kept)."""
        if self.stderr_path is not None:
            try:
                with open(self.stderr_path, "rb") as f:
                    f.seek(max(0, os.fstat(f.fileno()).st_size - 16384))
                    return f.read().decode(errors="replace").splitlines()[-n:]
            except OSError:
                return []
        return self.stderr_lines[-n:]

    def _drain_stderr(self) -> None:
        for line in io.BufferedReader(self.proc.stderr):
            self.stderr_lines.append(line.decode(errors="replace").rstrip())

    def _join_stderr(self, timeout: float = 5) -> None:
        if self._drain is not None:
            self._drain.join(timeout)

    def _failure(self, what: str, cls=ServeError) -> ServeError:
        if cls is not ServeTimeout:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            self._join_stderr(1)
        code = self.proc.poll()
        status = ("still running" if code is None else
                  f"killed by signal {-code}" if code < 0 else f"exit status {code}")
        msg = f"{self.label}: scout serve {what} ({status})"
        if self.stderr_path is not None:
            msg += f"; stderr in {self.stderr_path}"
        tail = self.stderr_tail()
        if tail:
            msg += "; the end of its stderr:\n" + "\n".join("  " + line for line in tail)
        return cls(msg)

    def _fill(self, deadline: float | None) -> None:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._fd], [], [], left)[0]:
                raise self._failure(f"did not answer within the timeout", ServeTimeout)
        chunk = os.read(self._fd, CHUNK)
        if not chunk:
            raise self._failure("ended")
        self._buf += chunk

    def _take_lines(self, n: int) -> bytes:
        """The bytes up to and including the n-th answer newline (read as needed); the rest
        stays buffered. One read per chunk and a newline count: nothing per line."""
        parts = [bytes(self._buf)]
        have = parts[0].count(b"\n")
        read, fd = os.read, self._fd
        while have < n:
            chunk = read(fd, CHUNK)
            if not chunk:
                self._buf = bytearray(b"".join(parts))
                raise self._failure(f"ended after {have} of {n} answers")
            parts.append(chunk)
            have += chunk.count(b"\n")
        data = b"".join(parts)
        cut = len(data)
        for _ in range(have - n + 1):
            cut = data.rindex(b"\n", 0, cut)
        cut += 1
        self._buf = bytearray(data[cut:])
        return data[:cut]
