"""`cass-data`: the dataset pipeline's command line (click), one subcommand per stage."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click


@click.group()
def cli() -> None:
    """Build verified CUDA<->HIP and SASS<->RDNA3 datasets."""


@cli.command()
@click.option("--n", "count", type=click.IntRange(min=0), required=True, help="how many programs")
@click.option("--seed", default="0", show_default=True, help="seed; program i is a function of (seed, i) alone")
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="folder for DOMAIN-INDEX.cu and manifest.jsonl")
@click.option("--domains", default="", help="comma-separated subset of the domains (default: all)")
def synth(count: int, seed: str, out_dir: Path, domains: str) -> None:
    """Write N self-checking CUDA programs (PASS/FAIL against a CPU reference)."""
    from cass_cc.util import atomic_write_text

    from .synth import DOMAINS, generate_many

    chosen = tuple(d.strip() for d in domains.split(",") if d.strip()) or DOMAINS
    unknown = [d for d in chosen if d not in DOMAINS]
    if unknown:
        raise click.BadParameter(f"unknown domain(s) {', '.join(unknown)}; known: {', '.join(DOMAINS)}",
                                 param_hint="--domains")
    lines = []
    for prog in generate_many(seed, count, chosen):
        name = f"{prog.domain}-{prog.index}.cu"
        atomic_write_text(out_dir / name, prog.source)
        lines.append(json.dumps({"file": name, "domain": prog.domain, "seed": prog.seed, "index": prog.index,
                                 "sha256": sha256_hex_bytes(prog.source)}, sort_keys=True))
    atomic_write_text(out_dir / "manifest.jsonl", "".join(line + "\n" for line in lines))
    click.echo(f"wrote {count} programs to {out_dir}", err=True)


def sha256_hex_bytes(text: str) -> str:
    """sha256 of the file's bytes (cass_cc.util.sha256_hex appends separators, so it is not a file hash)."""
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def main(argv: list[str] | None = None) -> int:
    try:
        cli.main(args=argv, prog_name="cass-data", standalone_mode=False)
    except click.exceptions.Exit as e:
        return int(e.exit_code or 0)
    except click.Abort:
        click.echo("aborted", err=True)
        return 1
    except click.ClickException as e:
        e.show()
        return e.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main())
