"""Model FLOPs of training a decoder (Qwen2/Llama shapes) and the peak of the GPU, for MFU.

Counted per token: 2 FLOPs per weight of every matmul (q, k, v, o, gate, up, down, and
the LM head) forward, twice that backward; full fine-tuning also computes weight
gradients (6 per weight in all), LoRA does not for the frozen weights (4 per weight, plus
6 per adapter weight). Attention scores and the weighted sum: 2 x 2 x heads x head_dim
FLOPs per (query, key) pair a causal mask keeps, n(n+1)/2 pairs for an example of n tokens
(packed examples attend within themselves only), forward x 3 for training. Recomputation
under activation checkpointing is not counted (model FLOPs, not hardware FLOPs).
"""
from __future__ import annotations

import os
from typing import Any, Iterable

# Dense bf16 tensor-core peaks, FLOP/s, by a substring of torch.cuda.get_device_name();
# the first match wins (more specific names first).
PEAK_BF16 = (
    ("GH200", 989.4e12),
    ("H200", 989.4e12),
    ("H100 PCIe", 756.0e12),
    ("H100 NVL", 835.0e12),
    ("H100", 989.4e12),  # SXM (HBM3)
    ("H800", 989.4e12),
    ("H20", 148.0e12),
    ("B200", 2250.0e12),
    ("A100", 312.0e12),
    ("A800", 312.0e12),
    ("L40S", 362.1e12),
    ("L4", 121.0e12),
    ("A10G", 70.0e12),
)


def peak_flops(device_name: str, env: Any = os.environ) -> float | None:
    """CASS_PEAK_TFLOPS overrides the table (a GPU it lacks, or clocks set differently)."""
    if env.get("CASS_PEAK_TFLOPS"):
        return float(env["CASS_PEAK_TFLOPS"]) * 1e12
    for key, value in PEAK_BF16:
        if key in device_name:
            return value
    return None


def _get(cfg: Any, name: str, default: Any = None) -> Any:
    return cfg.get(name, default) if isinstance(cfg, dict) else getattr(cfg, name, default)


def shape(cfg: Any) -> dict[str, int]:
    h = int(_get(cfg, "hidden_size"))
    heads = int(_get(cfg, "num_attention_heads"))
    kv = int(_get(cfg, "num_key_value_heads") or heads)
    head_dim = int(_get(cfg, "head_dim") or h // heads)
    return {"hidden": h, "layers": int(_get(cfg, "num_hidden_layers")), "intermediate": int(_get(cfg, "intermediate_size")),
            "vocab": int(_get(cfg, "vocab_size")), "heads": heads, "kv_heads": kv, "head_dim": head_dim}


def matmul_weights(cfg: Any) -> int:
    """Weights that multiply every token: the decoder layers' projections and the LM head."""
    s = shape(cfg)
    h, q, kv = s["hidden"], s["heads"] * s["head_dim"], s["kv_heads"] * s["head_dim"]
    per_layer = h * q + 2 * h * kv + q * h + 3 * h * s["intermediate"]
    return s["layers"] * per_layer + h * s["vocab"]


def attention_pairs(lengths: Iterable[int]) -> int:
    return sum(n * (n + 1) // 2 for n in lengths)


def train_flops(cfg: Any, lengths: Iterable[int], method: str = "full", adapter_weights: int = 0) -> float:
    """Model FLOPs of one training pass over examples of these lengths (each attending
    only within itself)."""
    lengths = list(lengths)
    s = shape(cfg)
    tokens = sum(lengths)
    per_weight = 6 if method == "full" else 4
    dense = per_weight * matmul_weights(cfg) * tokens + 6 * adapter_weights * tokens
    attention = 3 * 2 * 2 * s["layers"] * s["heads"] * s["head_dim"] * attention_pairs(lengths)
    return float(dense + attention)
