"""Card effects in the engine: the typed vocabulary, its YAML reader, the load-time compile
hook, and named Python hooks for the rare card no typed effect can express.

See `vocabulary` for the words, `parse` for the YAML form, `compiling` for when cards are
compiled, `hooks` for named hooks.
"""

from companion.engine.effects.compiling import (
    EffectCompiler,
    compile_card,
    compiler_for,
    install_effect_compilers,
)
from companion.engine.effects.hooks import (
    HOOKS,
    Hook,
    UnknownHookError,
    check_hooks,
    register_hook,
    run_hook,
)
from companion.engine.effects.parse import EffectError, parse_abilities, parse_ability
from companion.engine.effects.vocabulary import (
    EACH,
    SELF,
    Ability,
    CardAbilities,
    Damage,
    Destroy,
    Draw,
    Effect,
    Gain,
    Heal,
    Modify,
    Move,
    Permit,
    Prevent,
    Prompt,
    Return,
    Selector,
)

__all__ = [
    "EACH",
    "HOOKS",
    "SELF",
    "Ability",
    "CardAbilities",
    "Damage",
    "Destroy",
    "Draw",
    "Effect",
    "EffectCompiler",
    "EffectError",
    "Gain",
    "Heal",
    "Hook",
    "Modify",
    "Move",
    "Permit",
    "Prevent",
    "Prompt",
    "Return",
    "Selector",
    "UnknownHookError",
    "check_hooks",
    "compile_card",
    "compiler_for",
    "install_effect_compilers",
    "parse_abilities",
    "parse_ability",
    "register_hook",
    "run_hook",
]
