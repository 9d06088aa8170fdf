"""`model.attention = "torch_varlen"`: PyTorch's own variable-length flash attention
(torch.nn.attention.varlen.varlen_attn, CUDA) for packed rows, registered with transformers'
AttentionInterface (no flash_attn package needed).

A packed row arrives with the cumulative example lengths that DataCollatorWithFlattening
writes for flash attention (cu_seq_lens_q/k, max_length_q/k): each example attends causally
within itself and the kernel never visits pairs across examples. Without them (one plain
sequence, padded batches) the call goes to transformers' sdpa. The mask function is
transformers' flash one (no 4D mask is built).

The varlen signature changed between PyTorch releases (`is_causal=` before `window_size=`,
`scale=` and `enable_gqa=` later); `_causal_keywords` asks the installed one.
"""
from __future__ import annotations

import inspect
from typing import Any

NAME = "torch_varlen"


_CAUSAL: dict[str, Any] = {}  # the installed varlen_attn's causal keyword, found once outside any compiled code


def register() -> None:
    """Make NAME an attention implementation transformers accepts (idempotent)."""
    from transformers import AttentionInterface
    from transformers.masking_utils import AttentionMaskInterface, flash_attention_mask

    AttentionInterface.register(NAME, varlen_attention_forward)
    AttentionMaskInterface.register(NAME, flash_attention_mask)
    if not _CAUSAL:
        _CAUSAL.update(_causal_keywords())


def _causal_keywords() -> dict[str, Any]:
    try:
        from torch.nn.attention.varlen import varlen_attn
    except ImportError:  # older torch: the first call says so
        return {}
    params = inspect.signature(varlen_attn).parameters
    out: dict[str, Any] = {"window_size": (-1, 0)} if "window_size" in params else {"is_causal": True}
    out["_scale"] = "scale" in params
    return out


def kernel(q: Any, k: Any, v: Any, cu: Any, max_len: int, scale: float | None) -> Any:
    """Causal attention within each [cu[i], cu[i+1]) segment; q, k, v as (tokens, heads, dim)."""
    from torch.nn.attention.varlen import varlen_attn

    found = _CAUSAL or _causal_keywords()
    kwargs = {name: value for name, value in found.items() if name != "_scale"}
    if scale is not None and found.get("_scale"):
        kwargs["scale"] = scale
    return varlen_attn(q, k, v, cu, cu, max_len, max_len, **kwargs)


def varlen_attention_forward(module: Any, query: Any, key: Any, value: Any, attention_mask: Any,
                             scaling: float | None = None, dropout: float = 0.0, **kwargs: Any) -> tuple[Any, None]:
    """transformers' attention-function contract: query (batch, heads, tokens, dim), key/value
    (batch, kv_heads, tokens, dim); returns ((batch, tokens, heads, dim), no weights)."""
    import torch

    cu = kwargs.get("cu_seq_lens_q")
    if cu is None or query.shape[0] != 1:
        from transformers.integrations.sdpa_attention import sdpa_attention_forward

        return sdpa_attention_forward(module, query, key, value, attention_mask, scaling=scaling, dropout=dropout,
                                      **kwargs)
    batch, heads, tokens, dim = query.shape
    groups = heads // key.shape[1]
    q = query[0].transpose(0, 1)  # (tokens, heads, dim)
    k = key[0].repeat_interleave(groups, dim=0).transpose(0, 1) if groups > 1 else key[0].transpose(0, 1)
    v = value[0].repeat_interleave(groups, dim=0).transpose(0, 1) if groups > 1 else value[0].transpose(0, 1)
    max_len = kwargs.get("max_length_q")
    max_len = int(max_len) if isinstance(max_len, int) else tokens
    # Under autocast with fp32 weights, RoPE (fp32 cos/sin) hands back fp32 q and k; sdpa casts
    # them itself, the flash kernel takes fp16/bf16 only.
    device = query.device.type
    dtype = torch.get_autocast_dtype(device) if torch.is_autocast_enabled(device) else query.dtype
    q, k, v = (t.to(dtype).contiguous() for t in (q, k, v))
    out = kernel(q, k, v, cu.to(torch.int32), max_len, scaling)
    return out.unsqueeze(0), None
