"""An engine front with a scripted model in place of one: the tests of the edit front's rules (stop reasons,
windows, the head/tail rule) without a model run."""
from copy_as_decode.core.contract import EOS, FENCE
from copy_as_decode.core.program import parse
from copy_as_decode.engine.backends.prefix_cache import common_prefix
from copy_as_decode.engine.decoding.stats import Stats
from copy_as_decode.engine.front import EditFront


class ScriptedFront(EditFront):
    """Answers each rewrite with `answer` (a string, or a function of the document it is shown), ended by end of
    sequence, or with `fenced` by closing its block, and each program decode with `answer` read as a program;
    records the documents and the prompts it was shown, and for programs whether their copies were fed. Its
    cache holds what the last decode fed, as a llama.cpp context does (`resident`).
    `choice`: what `_choose` answers (name, probability), as a model's pick of a window from the outline."""

    def __init__(self, tok, answer, fenced: bool = False, choice=None):
        super().__init__(tok, context=32768, trained=False)
        self.answer, self.fenced, self.choice = answer, fenced, choice
        self.seen, self.prompts, self.options, self.choice_prompt, self.splices = [], [], None, None, []
        self.resident: list[int] = []

    def _decode_rewrite(self, plan):
        document, fence, hooks = plan.request.lf, plan.fence, plan.hooks
        self.seen.append(document)
        self.prompts.append(self.tok.decode(plan.ids))
        text = self.answer(document) if callable(self.answer) else self.answer
        stats = Stats(stop=FENCE if self.fenced else EOS, sampled=3, budget=plan.budget.limit)
        hooks.progress(stats, "")
        text += fence + "\n" if self.fenced else ""
        tokens = self.tok.encode(text, add_special_tokens=False)
        self.resident = plan.ids + tokens
        return tokens, text, stats

    def _decode_program(self, plan):
        self.seen.append(plan.request.lf)
        self.prompts.append(self.tok.decode(plan.ids))
        self.splices.append(plan.splice)
        self.resident = list(plan.ids)
        text = self.answer(plan.request.lf) if callable(self.answer) else self.answer
        return parse(text), Stats(stop=EOS, sampled=3, budget=plan.budget.limit)

    def held(self, ids):
        return common_prefix(self.resident, ids)

    def _choose(self, ids, options, hooks):
        self.options, self.choice_prompt, self.resident = options, self.tok.decode(ids), list(ids)
        return self.choice
