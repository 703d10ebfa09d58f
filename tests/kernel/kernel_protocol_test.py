#!/usr/bin/python3
"""Round trip through the Jupyter protocol with gyre-kernel: kernel_info, cells with top-level
statements, captured output, compile errors as In[k]:line:col, exceptions reported with the
kernel kept alive, state kept across cells, and cling pragmas.

usage: kernel_protocol_test.py KERNELSPEC_DIR   (the folder holding kernels/gyre-cpp17)
"""
import os
import sys
import tempfile

from jupyter_client.manager import start_new_kernel

TIMEOUT = 120  # seconds per cell: the first cell starts clang and parses <iostream>


def run(client, code, pieces=None):
    """Executes code and returns (reply content, stdout+stderr text, error content or None);
    the stream messages' texts are appended to `pieces` if given."""
    msg_id = client.execute(code)
    reply = client.get_shell_msg(timeout=TIMEOUT)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = client.get_shell_msg(timeout=TIMEOUT)
    text, error = "", None
    while True:
        msg = client.get_iopub_msg(timeout=TIMEOUT)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            text += content["text"]
            if pieces is not None:
                pieces.append(content["text"])
        elif kind == "error":
            error = content
        elif kind == "status" and content["execution_state"] == "idle":
            break
    return reply["content"], text, error


def expect(condition, what):
    if not condition:
        print("FAILED:", what)
        sys.exit(1)
    print("ok:", what)


def main():
    os.environ["JUPYTER_PATH"] = sys.argv[1]
    manager, client = start_new_kernel(kernel_name="gyre-cpp17", startup_timeout=60)
    try:
        info = client.kernel_info(reply=True, timeout=TIMEOUT)["content"]
        expect(info["implementation"] == "gyre-kernel" and info["language_info"]["name"] == "C++",
               "kernel_info names the kernel and the language")

        reply, text, error = run(client, '#include <iostream>\n#include <vector>\n'
                                          'std::vector<int> xs = {1, 2, 3};\n'
                                          'int total = 0;\n'
                                          'for (int x : xs) total += x;\n'
                                          'std::cout << "total " << total << std::endl;\n')
        expect(reply["status"] == "ok" and text == "total 6\n", "top-level statements run and print")

        reply, text, error = run(client, 'xs.push_back(10);\ntotal += xs.back();\nstd::cout << total;')
        expect(reply["status"] == "ok" and text == "16", "state is kept across cells; last ';' optional")

        reply, text, error = run(client, 'int ok = 1;\nint broken = undefined_name + 1;\n')
        expect(reply["status"] == "error" and error is not None and error["ename"] == "CompileError",
               "a compile error is a CompileError")
        expect(error["evalue"].startswith("In[%d]:2:14: error:" % reply["execution_count"]) and
               "undefined_name" in error["evalue"],
               "the error reads In[k]:line:col (got %r)" % error["evalue"])

        reply, text, error = run(client, 'int ok = 2;\nstd::cout << ok + total;')
        expect(reply["status"] == "ok" and text == "18", "a failed cell is rolled back: its names can be reused")

        reply, text, error = run(client, '#include <stdexcept>\n'
                                          'std::cout << "before" << std::endl;\n'
                                          'throw std::domain_error("gyre::Test: a bad value (42)");\n'
                                          'std::cout << "after" << std::endl;\n')
        expect(reply["status"] == "error" and error["ename"] == "std::domain_error" and
               error["evalue"] == "gyre::Test: a bad value (42)",
               "an exception is reported with its type and message")
        expect(text == "before\n", "statements after the exception do not run (got %r)" % text)

        reply, text, error = run(client, 'int thrower() { throw std::runtime_error("from an initializer"); }\n'
                                          'int value = thrower();\n')
        expect(reply["status"] == "error" and error["evalue"] == "from an initializer",
               "an exception from a top-level initializer is reported")

        reply, text, error = run(client, 'std::cout << "alive " << total;')
        expect(reply["status"] == "ok" and text == "alive 16", "the kernel survives exceptions")

        reply, text, error = run(client, '#include <cstdio>\nstd::printf("C %d\\n", 7);\nstd::fflush(stdout);\n'
                                          'std::cerr << "to stderr";')
        expect(reply["status"] == "ok" and text == "C 7\nto stderr", "printf and std::cerr are captured")

        reply, text, error = run(client, 'int sometimes(int x) { if (x) return 1; }\nstd::cout << "compiled";')
        expect(reply["status"] == "ok" and text.endswith("compiled") and
               text.startswith("In[%d]:1:41: warning: non-void function" % reply["execution_count"]),
               "warnings in a cell are shown, and the cell runs (got %r)" % text)

        reply, text, error = run(client, 'auto add_one = [](int v) { return v + 1; };\n')
        reply, text, error = run(client, 'std::cout << add_one(41);')
        expect(reply["status"] == "ok" and text == "42",
               "a lambda stored in a top-level variable can be called from a later cell (got %r)" % (error,))

        # Constant data clang names per module (the backing arrays of initializer lists are all
        # `constinit`, the first in each module) must stay in its module: shared by name, a later
        # cell read an earlier cell's numbers.
        reply, text, error = run(client, 'double first_sum() { std::vector<double> v{7.0, 8.0, 9.0}; '
                                         'return v[0] + v[1] + v[2]; }\nstd::cout << first_sum();')
        reply, text, error = run(client, 'double second_sum() { std::vector<double> v{1.0, 2.0, 4.0}; '
                                         'return v[0] + v[1] + v[2]; }\nstd::cout << second_sum() << " ";\n'
                                         'for (const double d : {90.0, 180.0}) std::cout << d << " ";')
        expect(reply["status"] == "ok" and text == "7 90 180 ",
               "each cell's constant arrays are its own (got %r)" % text)

        reply, text, error = run(client, 'int never_defined();\nstd::cout << never_defined();')
        expect(reply["status"] == "error" and error["ename"] == "LinkError" and "never_defined" in error["evalue"],
               "a symbol no library defines is a LinkError naming it (got %r)" % (error,))
        reply, text, error = run(client, 'std::cout << "after link error " << total;')
        expect(reply["status"] == "ok" and text == "after link error 16",
               "the next cell after a link error runs (got %r, %r)" % (text, error))

        pieces = []
        reply, text, error = run(client, '#include <chrono>\n#include <thread>\n'
                                          'std::cout << "first" << std::endl;\n'
                                          'std::this_thread::sleep_for(std::chrono::milliseconds(600));\n'
                                          'std::cout << "second" << std::endl;\n', pieces)
        expect(reply["status"] == "ok" and text == "first\nsecond\n" and pieces[0] == "first\n",
               "output printed while a cell runs is published before the cell ends (got %r)" % pieces)

        with tempfile.TemporaryDirectory() as folder:
            with open(os.path.join(folder, "answer.hpp"), "w") as header:
                header.write("#pragma once\ninline int answer() { return 42; }\n")
            reply, text, error = run(client, '#pragma cling add_include_path("%s")\n#include "answer.hpp"\n'
                                              'std::cout << answer();' % folder)
            expect(reply["status"] == "ok" and text == "42", "#pragma cling add_include_path works")

        reply, text, error = run(client, '#pragma cling load("libgyre_no_such_library")\n')
        expect(reply["status"] == "error" and error["ename"] == "PragmaError" and
               "libgyre_no_such_library" in error["evalue"], "loading a missing library is a clear error")

        reply, text, error = run(client, '#include <no_such_header.hpp>\n')
        expect(reply["status"] == "error" and "no_such_header.hpp" in error["evalue"],
               "a missing header is an error, not a crash")
        reply, text, error = run(client, 'std::cout << "still " << total;')
        expect(reply["status"] == "ok" and text == "still 16", "the kernel survives a missing header")
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


if __name__ == "__main__":
    main()
