"""Model-backed translation: CASS models (fine-tuned Qwen2.5-Coder) through transformers,
or any OpenAI-compatible chat-completions endpoint.

    prompts.py    the CASS prompt and answer-fence formats, answer extraction
    split.py      top-level pieces of a CUDA file (per function), for short contexts
    settings.py   the model settings, read from the config table
    store.py      the answer cache (diskcache) and memoised file digests
    hf.py         local weights through transformers (imports torch)
    endpoint.py   an OpenAI-compatible server through urllib
    synthetic.py  random-weight models and an offline tokenizer, for tests and benchmarks

The translator that puts a model in the translator chain is cass_cc/translate/model.py.
Nothing here imports torch or transformers at import time: only hf.py does, inside
the functions that load a model (README.md says how it all fits).
"""
from __future__ import annotations


class ModelError(Exception):
    """The model could not be loaded or asked (one line, naming the model)."""
