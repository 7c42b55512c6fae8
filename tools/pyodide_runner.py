"""The Python side of tools/pyodide_node.mjs and tools/pyodide_browser.py: run a file, a module or code as
``__main__`` under Pyodide with the given ``sys.argv`` and working directory; its value is the exit status.

Fixed code, read by both tools and evaluated by Pyodide's ``runPython``; nothing in it comes from the command
line: the values arrive as the arguments of ``run``.  The last line is the expression ``runPython`` returns.
"""


def run(kind, target, argv, cwd):
    import os
    import runpy
    import sys
    import traceback

    os.chdir(cwd)
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(target)) if kind == "file" else cwd)
    try:
        if kind == "module":
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        elif kind == "code":
            exec(compile(target, "<string>", "exec"), {"__name__": "__main__"})
        else:
            runpy.run_path(target, run_name="__main__")
        status = 0
    except SystemExit as exit:
        if exit.code is None or isinstance(exit.code, int):
            status = exit.code or 0
        else:
            print(exit.code, file=sys.stderr)
            status = 1
    except BaseException:
        traceback.print_exc()
        status = 1
    sys.stdout.flush()
    sys.stderr.flush()
    return status

run  # noqa: B018 (the value runPython returns)
