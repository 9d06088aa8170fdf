"""The model and tokenizer a recipe trains: full weights, LoRA or QLoRA (peft), with the
attention implementation, dtype and KV-cache setting that packing needs.

`use_cache` is turned off: with a cache object present, transformers does not derive
the block-diagonal mask of packed rows from their position ids (the examples of a row
would attend to each other; tests/train/test_packing.py catches that).
"""
from __future__ import annotations

from typing import Any

from .recipe import Recipe, RecipeError


def gpu_available() -> bool:
    import torch

    return bool(torch.cuda.is_available())


def use_bf16(recipe: Recipe) -> bool:
    if recipe.train.bf16 == "auto":
        import torch

        return bool(torch.cuda.is_available() and torch.cuda.is_bf16_supported())
    return recipe.train.bf16 == "true"


def load_dtype(recipe: Recipe) -> str:
    """Weights as loaded. Full fine-tuning keeps float32 master weights and computes in
    bf16 under autocast; LoRA freezes the base, so bf16 weights halve its memory."""
    if recipe.model.dtype != "auto":
        return recipe.model.dtype
    if recipe.train.method == "full" or not gpu_available():
        return "float32"
    return "bfloat16" if use_bf16(recipe) else "float16"


# The `auto` choices below follow the H100 sweep (bench/results/train_h100/sweep.md; Qwen2.5-1.5B,
# full fine-tuning, 4,096-token packed rows): flex attention 1.42x, regional compile 1.80x,
# compiled loss 1.35x, no token-count sync 1.12x alone; all of them with 2 rows a micro-step
# 2.50x (MFU 15.7% -> 39.2%). On a CPU (the tests) they stay off: compiling there takes minutes.


def attention(recipe: Recipe) -> str:
    """`auto`: flash_attention_2 when flash_attn is installed and a GPU is there; else on a GPU
    flex_attention for packed rows (a block mask that skips pairs across examples, where sdpa
    gets a dense 4D mask); else sdpa. `torch_varlen` is cass_train/attention.py."""
    wanted = recipe.model.attention
    if wanted != "auto":
        return wanted
    import importlib.util

    if gpu_available() and importlib.util.find_spec("flash_attn") is not None:
        return "flash_attention_2"
    if gpu_available() and recipe.data.packing:
        return "flex_attention"
    return "sdpa"


def compile_mode(recipe: Recipe) -> str:
    """`auto`: regional compilation for full fine-tuning on a GPU, in one process or under
    torchrun with DDP (measured on 1 and 2 GPUs: 2-GPU scaling 1.35x without it, 1.78x with);
    off for LoRA and on CPUs."""
    wanted = recipe.train.compile
    if wanted != "auto":
        return wanted
    return "regional" if gpu_available() and recipe.train.method == "full" else "off"


def loss_mode(recipe: Recipe) -> str:
    """`auto`: the compiled cross-entropy (cass_train/loss.py) on a GPU, transformers' own elsewhere."""
    wanted = recipe.train.loss
    if wanted != "auto":
        return wanted
    return "compiled" if gpu_available() else "model"


def liger(recipe: Recipe) -> bool:
    import importlib.util

    if recipe.model.liger == "auto":
        return importlib.util.find_spec("liger_kernel") is not None and gpu_available()
    return recipe.model.liger == "true"


def pretrained(recipe: Recipe) -> tuple[str, dict[str, Any]]:
    """from_pretrained's first argument and the keywords naming the base model's weights: a hub id
    at the recipe's revision, a transformers folder, or a GGUF model (a .gguf file, or a folder
    holding one: dequantized by transformers' GGUF reader)."""
    from cass_cc.model import ModelError
    from cass_cc.model.hf import is_local, local_weights

    base = recipe.model.base
    if not is_local(base):
        return base, {"revision": recipe.model.revision}
    try:
        folder, gguf = local_weights(base)
    except ModelError as e:
        raise RecipeError(str(e)) from None
    return str(folder), ({"gguf_file": gguf} if gguf else {})


def plain_weights(model: Any) -> Any:
    """A model loaded from GGUF holds dequantized (plain float) weights, but transformers keeps its
    GGUF quantizer on it: the Trainer then refuses to train it ("purely quantized"), and
    save_pretrained would write a quantization_config no folder of float weights has. Both are
    dropped, so the result is a plain model (and a plain transformers folder when saved)."""
    config = getattr(getattr(model, "config", None), "quantization_config", None)
    if config is not None and str(getattr(config, "quant_method", "")).lower().endswith("gguf"):
        model.hf_quantizer = None
        model.is_quantized = False
        del model.config.quantization_config
    return model


def load_tokenizer(recipe: Recipe) -> Any:
    from transformers import AutoTokenizer

    source, files = pretrained(recipe)
    try:
        tok = AutoTokenizer.from_pretrained(source, trust_remote_code=False, **files)
    except Exception as e:
        raise RecipeError(f"{recipe.model.base}: cannot load its tokenizer: {_one_line(e)}") from None
    if tok.pad_token is None:
        tok.pad_token = tok.eos_token
    tok.padding_side = "right"
    return tok


def load_model(recipe: Recipe, config: Any = None) -> Any:
    """The model ready for the Trainer. With `config` (a transformers config): random weights
    of that shape, made on the GPU when there is one (benchmarks)."""
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    dtype = getattr(torch, load_dtype(recipe))
    attn = attention(recipe)
    if attn == "torch_varlen":
        from .attention import register

        register()
    kwargs: dict[str, Any] = {dtype_keyword(): dtype, "attn_implementation": attn}
    if recipe.train.method == "qlora":
        kwargs["quantization_config"] = _four_bit(dtype)
    try:
        if config is not None:
            if recipe.train.method == "qlora":
                raise RecipeError("random weights (bench) cannot be quantized: bench a qlora recipe as lora")
            config = AutoConfig.for_model(**config) if isinstance(config, dict) else config
            with torch.device("cuda" if gpu_available() else "cpu"):
                model = AutoModelForCausalLM.from_config(config, **kwargs)
        else:
            source, files = pretrained(recipe)
            model = plain_weights(AutoModelForCausalLM.from_pretrained(source, trust_remote_code=False, **kwargs, **files))
    except (OSError, ValueError, ImportError) as e:
        raise RecipeError(f"{recipe.model.base}: cannot load the model: {_one_line(e)}") from None
    model.config.use_cache = False
    if recipe.train.method == "full":
        return model
    return with_lora(model, recipe)


def dtype_keyword() -> str:
    """transformers 4.56 renamed from_pretrained's torch_dtype to dtype."""
    import re

    import transformers

    major_minor = tuple(int(x) for x in re.findall(r"\d+", transformers.__version__)[:2])
    return "dtype" if major_minor >= (4, 56) else "torch_dtype"


def with_lora(model: Any, recipe: Recipe) -> Any:
    from peft import LoraConfig, get_peft_model, prepare_model_for_kbit_training

    if recipe.train.method == "qlora":
        model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=recipe.train.gradient_checkpointing)
    targets = recipe.lora.target_modules
    modules: Any = targets if targets == "all-linear" else [t.strip() for t in targets.split(",") if t.strip()]
    config = LoraConfig(r=recipe.lora.r, lora_alpha=recipe.lora.alpha, lora_dropout=recipe.lora.dropout,
                        target_modules=modules, bias="none", task_type="CAUSAL_LM")
    peft_model = get_peft_model(model, config)
    if recipe.train.gradient_checkpointing:
        # inputs of the frozen embedding need grads for checkpointed blocks to backpropagate
        peft_model.enable_input_require_grads()
    return peft_model


def _four_bit(dtype: Any) -> Any:
    import importlib.util

    if importlib.util.find_spec("bitsandbytes") is None:
        raise RecipeError("train.method = qlora needs bitsandbytes (pip install bitsandbytes) and a CUDA GPU")
    if not gpu_available():
        raise RecipeError("train.method = qlora needs a CUDA GPU")
    from transformers import BitsAndBytesConfig

    return BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type="nf4", bnb_4bit_use_double_quant=True,
                              bnb_4bit_compute_dtype=dtype)


def count_parameters(model: Any) -> tuple[int, int]:
    """(trainable, total)."""
    total = trainable = 0
    for p in model.parameters():
        total += p.numel()
        if p.requires_grad:
            trainable += p.numel()
    return trainable, total


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return (text[:300] + "...") if len(text) > 300 else text or type(e).__name__
