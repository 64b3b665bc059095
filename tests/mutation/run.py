"""Run mutmut over the rules and record the result (see the package docstring).

    python -m tests.mutation.run sample [--size 400] [--seed 12] [--children 1] [--minutes M]
    python -m tests.mutation.run full [--children 1] [--minutes M]
    python -m tests.mutation.run rerun [--children 1]

Both leave `mutants/` (mutmut's working copy, git-ignored) and write
tests/mutation/result.json: counts, the score (killed and timed out over all run), every
survivor, and a few killed mutants with the test that kills each (CI re-checks those).

The drawn mutants run in a seeded random order, so a run stopped by `--minutes` (no new batch
starts after that) is still a fair sample of the draw; the result then says how many of the
drawn mutants ran. `rerun` runs again only the survivors recorded in result.json (after new
tests were written) and records, beside the first run's figures, how many of them are now
killed and the score that follows ("rerun_of_survivors").
"""

from __future__ import annotations

import argparse
import compileall
import itertools
import json
import random
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from tests.mutation.patching import Patch, killing_test

ROOT = Path(__file__).resolve().parents[2]
RESULT = Path(__file__).resolve().parent / "result.json"
MUTMUT = [sys.executable, "-m", "mutmut"]
STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests",
          34: "skipped", 36: "timeout", -24: "timeout", 24: "timeout", 152: "timeout",
          255: "timeout", 37: "caught by type check"}
SENTINELS = 8


def metas() -> dict[str, dict[str, int | None]]:
    """Mutant name -> exit code (None: not run), from mutmut's working copy."""
    out: dict[str, dict[str, int | None]] = {}
    for meta in sorted((ROOT / "mutants" / "companion").rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        source = str(meta.relative_to(ROOT / "mutants")).removesuffix(".meta")
        out[source] = data.get("exit_code_by_key", {})
    return out


def generate() -> None:
    """Let mutmut make every mutant and measure which tests cover what (runs no mutant)."""
    subprocess.run([*MUTMUT, "run", "--max-children", "1", "no.mutant.matches*"], cwd=ROOT,
                   env=_env(), capture_output=True, text=True, check=False)
    if not metas():
        sys.exit("mutmut made no mutants: run `mutmut run` to see why")
    compileall.compile_dir(ROOT / "mutants" / "companion", quiet=1)


def _env() -> dict[str, str]:
    """CI mode, and the rulebooks: the tests that read them look beside the repository, which
    from mutmut's copy (mutants/) is one folder too deep, so they would skip there. Bytecode
    is written: the mutated modules (about 120 MB with every mutant) are otherwise compiled
    again by every process that imports them, the stats step and each mutant's fork alike."""
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["CI"] = "1"
    rules = ROOT.parent / "shared" / "rules"
    if "COMPANION_RULES_DIR" not in env and rules.is_dir():
        env["COMPANION_RULES_DIR"] = str(rules)
    return env


def sample(names_by_file: dict[str, list[str]], size: int, seed: int) -> list[str]:
    """`size` mutants, each file in proportion to its mutants (at least one per file)."""
    rng = random.Random(seed)
    total = sum(len(v) for v in names_by_file.values())
    chosen: list[str] = []
    for _source, names in sorted(names_by_file.items()):
        k = max(1, round(size * len(names) / total))
        chosen += rng.sample(sorted(names), min(k, len(names)))
    return chosen


def run(names: list[str], children: int, deadline: float | None = None,
        batch_size: int = 60) -> list[str]:
    """Run `names` in batches; no batch starts after `deadline`. The names that ran."""
    done: list[str] = []
    for i in range(0, len(names), batch_size):
        if deadline is not None and time.time() > deadline:
            print(f"  time budget spent: {len(done)} of {len(names)} mutants run", flush=True)
            break
        batch = names[i:i + batch_size]
        subprocess.run([*MUTMUT, "run", "--max-children", str(children), *batch], cwd=ROOT,
                       env=_env(), capture_output=True, text=True, check=False)
        done += batch
        print(f"  {len(done)}/{len(names)} mutants run", flush=True)
    return done


def show(name: str) -> str:
    out = subprocess.run([*MUTMUT, "show", name], cwd=ROOT, capture_output=True, text=True,
                         check=False)
    return out.stdout


def record(kind: str, names: list[str], seed: int, started: float, drawn: int | None = None,
           keep_sentinels: bool = False) -> None:
    codes = {n: c for per in metas().values() for n, c in per.items()}
    status = Counter(STATUS.get(codes.get(n), "not run") for n in names)  # type: ignore[arg-type]
    by_package: dict[str, Counter[str]] = defaultdict(Counter)
    for n in names:
        by_package[".".join(n.split(".")[:3])][STATUS.get(codes.get(n), "not run")] += 1  # type: ignore[arg-type]
    tested = sum(v for k, v in status.items() if k not in ("skipped", "not run"))
    score = (status["killed"] + status["timeout"]) / tested if tested else 0.0
    survivors = sorted(n for n in names if STATUS.get(codes.get(n)) == "survived")  # type: ignore[arg-type]
    rng = random.Random(seed)
    killed = sorted(n for n in names if STATUS.get(codes.get(n)) == "killed")  # type: ignore[arg-type]
    sentinels = []
    if keep_sentinels and RESULT.exists():  # the last run's, still re-checked by CI
        sentinels = json.loads(RESULT.read_text(encoding="utf-8")).get("sentinels", [])
    for name in rng.sample(killed, len(killed)) if not sentinels else []:
        patch = Patch.from_mutmut(name, show(name))
        if patch is None:
            continue
        test = killing_test(patch, _covering(name))
        if test is not None:
            sentinels.append({**patch.to_dict(), "test": test})
        if len(sentinels) == SENTINELS:
            break
    result = {
        "kind": kind, "seed": seed, "commit": _commit(), "date": time.strftime("%Y-%m-%d"),
        "mutants_total": sum(len(v) for v in metas().values()),
        "drawn": drawn if drawn is not None else len(names),
        "run": len(names), "status": dict(sorted(status.items())), "score": round(score, 4),
        "by_package": {k: dict(sorted(v.items())) for k, v in sorted(by_package.items())},
        "minutes": round((time.time() - started) / 60, 1),
        "survivors": survivors, "sentinels": sentinels,
    }
    RESULT.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"score {score:.1%} of {tested} mutants run ({dict(status)}) -> {RESULT}")


def rerun(children: int, started: float) -> None:
    """Run the recorded survivors again; add how many are now killed to result.json."""
    result = json.loads(RESULT.read_text(encoding="utf-8"))
    survivors = list(result["survivors"])
    generate()
    run(survivors, children, batch_size=30)
    codes = {n: c for per in metas().values() for n, c in per.items()}
    now = {n: STATUS.get(codes.get(n), "not run") for n in survivors}  # type: ignore[arg-type]
    status = result["status"]
    tested = sum(v for k, v in status.items() if k not in ("skipped", "not run"))
    killed_now = sum(1 for s in now.values() if s in ("killed", "timeout"))
    result["rerun_of_survivors"] = {
        "date": time.strftime("%Y-%m-%d"), "commit": _commit(),
        "rerun": len(survivors), "now_killed": killed_now,
        "still_surviving": sorted(n for n, s in now.items() if s == "survived"),
        "other": {n: s for n, s in sorted(now.items()) if s not in ("killed", "timeout",
                                                                      "survived")},
        "score_after": round((status.get("killed", 0) + status.get("timeout", 0) + killed_now)
                             / tested, 4) if tested else 0.0,
        "minutes": round((time.time() - started) / 60, 1),
    }
    RESULT.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{killed_now} of {len(survivors)} former survivors now killed: score "
          f"{result['rerun_of_survivors']['score_after']:.1%} -> {RESULT}")


def _commit() -> str:
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True, check=False).stdout.strip()


def _covering(name: str) -> list[str]:
    out = subprocess.run([*MUTMUT, "tests-for-mutant", name], cwd=ROOT, capture_output=True,
                         text=True, check=False)
    return [t for t in out.stdout.split() if "::" in t]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation.run")
    parser.add_argument("kind", choices=["sample", "full", "rerun"])
    parser.add_argument("--size", type=int, default=400)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--children", type=int, default=1,
                        help="mutants run at once (1: the machine is shared)")
    parser.add_argument("--minutes", type=float, default=None,
                        help="start no new batch after this many minutes")
    parser.add_argument("--batch", type=int, default=60, help="mutants per mutmut call")
    parser.add_argument("--reuse-mutants", action="store_true",
                        help="use the mutants and test map already in mutants/ (made by an "
                             "earlier run of this commit's code) instead of making them again")
    parser.add_argument("--resume", action="store_true",
                        help="go on where a time-boxed run of the same draw stopped: the drawn "
                             "mutants that already have a result in mutants/ count as run")
    parser.add_argument("--keep-sentinels", action="store_true",
                        help="carry the last result's sentinels over instead of finding new")
    args = parser.parse_args(argv)
    started = time.time()
    if args.kind == "rerun":
        rerun(args.children, started)
        return
    if not (args.reuse_mutants and (ROOT / "mutants" / "mutmut-stats.json").exists()):
        generate()
    names_by_file = {s: list(v) for s, v in metas().items() if v}
    if args.kind == "full":
        names = [n for v in names_by_file.values() for n in v]
    else:
        names = sample(names_by_file, args.size, args.seed)
    print(f"{len(names)} of {sum(len(v) for v in names_by_file.values())} mutants", flush=True)
    random.Random(args.seed).shuffle(names)  # any prefix of the run is a fair sample
    deadline = started + args.minutes * 60 if args.minutes is not None else None
    earlier: list[str] = []
    if args.resume:  # the seeded order's prefix that already ran stays a prefix
        codes = {n: c for per in metas().values() for n, c in per.items()}
        earlier = list(itertools.takewhile(lambda n: codes.get(n) is not None, names))
        print(f"{len(earlier)} of the drawn ran before", flush=True)
    ran = earlier + run(names[len(earlier):], args.children, deadline, args.batch)
    codes = {n: c for per in metas().values() for n, c in per.items()}
    ran += [n for n in names[len(ran):] if codes.get(n) is not None]  # a batch cut short
    record(args.kind, ran, args.seed, started, drawn=len(names),
           keep_sentinels=args.keep_sentinels)


if __name__ == "__main__":
    main()

