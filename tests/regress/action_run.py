#!/usr/bin/env python3
"""action_run.py - run the `run` steps of action.yml on this machine as GitHub's runner would.

Inputs are given as NAME=VALUE arguments (defaults from action.yml); `${{ inputs.X }}`,
`${{ runner.temp }}` and `${{ steps.ID.outputs.X }}` are substituted, `if:` conditions of
always(), &&, ||, ==, != over those are evaluated, GITHUB_PATH and GITHUB_OUTPUT are honoured
between steps, and `uses:` steps are listed, not run (they need GitHub), except
actions/cache/restore and actions/cache/save, played with the folder $ACTION_RUN_CACHE. Prints one line per step; exits with the first failing step's code, else 0."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml


def main():
    action_path, argv = sys.argv[1], sys.argv[2:]
    with open(os.path.join(action_path, "action.yml")) as f:
        action = yaml.safe_load(f)
    inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    for a in argv:
        k, _, v = a.partition("=")
        if k not in inputs:
            sys.exit(f"action_run: action.yml has no input {k!r}")
        inputs[k] = v
    temp = os.environ.get("RUNNER_TEMP") or tempfile.mkdtemp()
    outputs = {}

    def expand(text, ok=True):
        def one(m):
            expr = m.group(1).strip()
            if expr.startswith("inputs."):
                return inputs[expr[len("inputs."):]]
            if expr == "runner.temp":
                return temp
            s = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
            if s:
                return outputs.get(s.group(1), {}).get(s.group(2), "")
            return "true" if condition(expr) else "false"
        return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))

    def value(term):
        term = term.strip()
        if term == "always()":
            return True
        if re.fullmatch(r"'[^']*'", term):
            return term[1:-1]
        if term.startswith("inputs."):
            return inputs[term[len("inputs."):]]
        s = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", term)
        if s:
            return outputs.get(s.group(1), {}).get(s.group(2), "")
        sys.exit(f"action_run: cannot evaluate {term!r}")

    def condition(expr):
        """The conditions action.yml uses: || of && of comparisons or terms."""
        def compare(part):
            m = re.fullmatch(r"(.+?)\s*(==|!=)\s*(.+)", part.strip())
            if not m:
                return bool(value(part))
            equal = value(m.group(1)) == value(m.group(3))
            return equal if m.group(2) == "==" else not equal
        return any(all(compare(p) for p in alt.split("&&")) for alt in expr.split("||"))

    env = dict(os.environ, GITHUB_ACTION_PATH=action_path, RUNNER_TEMP=temp)
    env.setdefault("RUNNER_OS", "Linux")
    env.setdefault("RUNNER_ARCH", "X64")
    failed = 0
    for i, step in enumerate(action["runs"]["steps"]):
        name = step.get("name", f"step {i}")
        cond = "true" if "if" not in step else expand(step["if"]) if "${{" in step["if"] else \
            ("true" if condition(step["if"]) else "false")
        if "uses" in step and step["uses"].startswith("actions/cache/") and cond == "true" and not failed:
            with_ = {k: expand(v) for k, v in step["with"].items()}
            store = os.path.join(os.environ["ACTION_RUN_CACHE"], with_["key"])
            if step["uses"].startswith("actions/cache/restore@"):
                hit = os.path.isdir(store)
                if hit:
                    shutil.copytree(store, with_["path"], symlinks=True, dirs_exist_ok=True)
                outputs[step.get("id", str(i))] = {"cache-hit": "true" if hit else "false"}
                print(f"action_run: {name}: restore key {with_['key']}: {'hit' if hit else 'miss'}")
            else:
                shutil.copytree(with_["path"], store, symlinks=True)
                print(f"action_run: {name}: saved key {with_['key']}")
            continue
        if "uses" in step:
            given = sorted((k, expand(v)) for k, v in step.get("with", {}).items())
            print(f"action_run: {name}: uses {step['uses']} (not run here; would run: {cond}) with {given}")
            continue
        if cond != "true" or failed:
            print(f"action_run: {name}: skipped")
            continue
        files = {k: os.path.join(temp, f"{k}.{i}") for k in ("GITHUB_PATH", "GITHUB_OUTPUT")}
        for p in files.values():
            open(p, "w").close()
        step_env = dict(env, **files)
        step_env.update({k: expand(v) for k, v in step.get("env", {}).items()})
        rc = subprocess.call(["bash", "-e", "-c", expand(step["run"])], env=step_env)
        with open(files["GITHUB_PATH"]) as f:
            for line in f.read().split():
                env["PATH"] = line + os.pathsep + env["PATH"]
        with open(files["GITHUB_OUTPUT"]) as f:
            got = dict(l.split("=", 1) for l in f.read().splitlines() if "=" in l)
        outputs[step.get("id", str(i))] = got
        print(f"action_run: {name}: exit {rc} outputs {sorted(got.items())}")
        if rc:
            failed = rc
    for k, v in action.get("outputs", {}).items():
        print(f"action_run: output {k}={expand(v['value'])}")
    return failed


if __name__ == "__main__":
    sys.exit(main())
