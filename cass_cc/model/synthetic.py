"""Random-weight Qwen2 models and an offline tokenizer, for tests and benchmarks: no
weights can be downloaded there, and none are needed to test loading, templates,
batching, caching and validation (a random model's answers are garbage, which is what
the validation tests want).

    folder = write_model(path, tiny_config())        # tests: a few MB, CPU, seconds
    folder = write_model(path, qwen2_1_5b_config())  # benchmarks: Qwen2.5-Coder-1.5B's shape

The tokenizer is a byte-level BPE trained here on a few CUDA and HIP snippets, with
Qwen's chat tokens and a ChatML chat template like Qwen2.5's.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
CHAT_TEMPLATE = (
    "{% if messages[0]['role'] != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}"
    "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)
CORPUS = [
    "Convert the following CUDA code to AMD GPU code:\n```cuda\n#include <cuda_runtime.h>\n```\n",
    "```amd\n#include <hip/hip_runtime.h>\n```\n```hipasm\ns_endpgm\n```\n",
    "__global__ void add(float* a, const float* b, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) a[i] += b[i];\n}\n",
    "int main() {\n  float* d;\n  cudaMalloc(&d, n * sizeof(float));\n  cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);\n"
    "  add<<<(n + 255) / 256, 256>>>(d, d, n);\n  cudaDeviceSynchronize();\n  cudaFree(d);\n}\n",
    "hipMalloc(&d, n * sizeof(float)); hipMemcpy(d, h, n, hipMemcpyHostToDevice); hipDeviceSynchronize(); hipFree(d);\n",
    "asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane)); __shfl_down_sync(0xffffffff, v, 16); __syncthreads();\n",
]


def build_tokenizer(vocab_size: int = 512) -> Any:
    """A transformers fast tokenizer (byte-level BPE) made offline with `tokenizers`."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    bpe.train_from_iterator(CORPUS * 4, trainer)
    tok = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tok.chat_template = CHAT_TEMPLATE
    return tok


def tiny_config(vocab_size: int = 512, **overrides: Any) -> dict[str, Any]:
    """Two layers, hidden size 64: under a megabyte of weights, fast on one CPU core."""
    config = dict(
        vocab_size=vocab_size, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
        num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=2048, tie_word_embeddings=True,
    )
    config.update(overrides)
    return config


def qwen2_1_5b_config() -> dict[str, Any]:
    """Qwen2.5-Coder-1.5B's architecture (its config.json), for benchmarks."""
    return dict(
        vocab_size=151936, hidden_size=1536, intermediate_size=8960, num_hidden_layers=28,
        num_attention_heads=12, num_key_value_heads=2, max_position_embeddings=32768, rope_theta=1000000.0,
        rms_norm_eps=1e-6, tie_word_embeddings=True, hidden_act="silu", sliding_window=None, use_sliding_window=False,
    )


def write_model(folder: Path, config: dict[str, Any], seed: int = 0, dtype: str = "float32", device: str = "cpu") -> Path:
    """Save a random-weight Qwen2ForCausalLM with `config` and the offline tokenizer to `folder`."""
    import torch
    import transformers
    from transformers import Qwen2Config, Qwen2ForCausalLM

    transformers.utils.logging.disable_progress_bar()
    tok = build_tokenizer(min(512, config["vocab_size"]))
    cfg = Qwen2Config(**config, eos_token_id=tok.eos_token_id, pad_token_id=tok.pad_token_id, bos_token_id=None)
    torch.manual_seed(seed)
    with torch.device(device):
        model = Qwen2ForCausalLM(cfg).to(getattr(torch, dtype))
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(folder))
    tok.save_pretrained(str(folder))
    return folder
