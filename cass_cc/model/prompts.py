"""The CASS prompt and fence formats, exactly as the released weights were trained on.

Source:   "Convert the following CUDA code to AMD GPU code:\\n```cuda\\n{code}\\n```"
          answered in a ```amd fence;
assembly: "Convert the following CUDA device assembly code to HIP device assembly:\\n```cudaasm\\n{sass}\\n```"
          answered in a ```hipasm fence.

The prompt is the only (user) message; the tokenizer's chat template adds the rest
(Qwen2.5's default system message, the generation prompt). The answer is the text after
the first answer fence up to the next "```"; an answer without a closed fence (the
model stopped, or ran out of tokens) yields nothing.
"""
from __future__ import annotations

from dataclasses import dataclass

# Part of every cache key: change it when the prompt, the extraction or the way answers
# are put together (translate/model.py) changes.
PROMPT_VERSION = "cass-1"


@dataclass(frozen=True)
class Format:
    instruction: str
    input_fence: str
    answer_fence: str

    def prompt(self, code: str) -> str:
        return f"{self.instruction}\n```{self.input_fence}\n{code}\n```"

    def extract(self, answer: str) -> str | None:
        return extract(answer, self.answer_fence)


SOURCE = Format("Convert the following CUDA code to AMD GPU code:", "cuda", "amd")
ASSEMBLY = Format("Convert the following CUDA device assembly code to HIP device assembly:", "cudaasm", "hipasm")


def messages(prompt: str) -> list[dict[str, str]]:
    """The chat the model sees: the prompt as the one user message."""
    return [{"role": "user", "content": prompt}]


def extract(answer: str, fence: str) -> str | None:
    """The body of the first ```<fence> block of `answer`, or None when there is none or it
    is not closed. "```amdgpu" is not an "amd" fence; text after the tag on its line
    (```amd title) is ignored, as Markdown does."""
    opening = "```" + fence
    start = 0
    while True:
        at = answer.find(opening, start)
        if at < 0:
            return None
        after = at + len(opening)
        if after == len(answer) or not (answer[after].isalnum() or answer[after] in "_-+"):
            break
        start = after
    line_end = answer.find("\n", after)
    if line_end < 0:
        return None
    end = answer.find("```", line_end + 1)
    if end < 0:
        return None
    body = answer[line_end + 1 : end]
    return body if body.endswith("\n") or not body else body + "\n"
