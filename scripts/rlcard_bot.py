"""RLCard's rule-based Dou Dizhu agent (rlcard 1.2.0, `DouDizhuRuleAgentV1`) as a bot speaking our bot
protocol (docs/bot-protocol.md), so that `ddz arena` can play it against `ddz bot`.

Our engine runs the deal; this bridge only translates. For each request it builds the raw observation
that the rule agent reads from RLCard's own game (`raw_obs`: `current_hand`, `trace`, `actions`,
`landlord`, `self`), calls the agent's `step`, and answers the index of the choice whose ranks are the
action it named. Cards are written as RLCard writes them, ranks in the order 3456789TJQKA2BR, which
is our rank shorthand (`play.ranks`) for a deck without the Wild.

Only the research protocol's decisions (trick play) are asked of it. Usage:
`python3 rlcard_bot.py [--seed N] [--record FILE]` (the seed is numpy's, which the agent uses to pick at
random when it cannot follow as a landlord or against one). `--record` appends each request with the
agent's answer and whether it drew at random, one JSON line each: the data that `tests/rule_agent.rs`
checks our re-implementation (`ddz arena --b rlcard-rule`) against.
"""

import json
import sys

import numpy as np
from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

ORDER = "3456789TJQKA2BR"


def rank_string(cards):
    """RLCard's form of a list of our cards ("3S", "BJ", "RJ"): ranks only, sorted."""
    ranks = []
    for card in cards:
        if card == "BJ":
            ranks.append("B")
        elif card == "RJ":
            ranks.append("R")
        else:
            ranks.append(card[0])
    return "".join(sorted(ranks, key=ORDER.index))


def action_string(action):
    if action["action"] == "pass":
        return "pass"
    return rank_string(action["cards"])


def raw_observation(view, choices):
    trace = []
    for action in view["actions"]:
        if action["action"] in ("play", "pass"):
            trace.append((action["seat"], action_string(action)))
    legal = []
    for choice in choices:
        text = action_string(choice)
        if text not in legal:
            legal.append(text)
    return {
        "current_hand": rank_string(view["hand"]),
        "trace": trace,
        "actions": legal,
        "landlord": view["landlord"],
        "self": view["seat"],
    }


def answer(agent, request, misses):
    choices = request["choices"]
    if choices[0]["action"] not in ("play", "pass"):
        return 0  # not asked under the research protocol; the first choice
    state = {"raw_obs": raw_observation(request["view"], choices)}
    chosen = agent.step(state)
    for index, choice in enumerate(choices):
        if action_string(choice) == chosen:
            return index
    misses[0] += 1
    sys.stderr.write(f"rlcard_bot: the agent chose {chosen!r}, which is not offered; answered choice 0\n")
    return 0


def main():
    seed = 0
    record = None
    args = sys.argv[1:]
    while args:
        if args[0] == "--seed" and len(args) > 1:
            seed = int(args[1])
        elif args[0] == "--record" and len(args) > 1:
            record = open(args[1], "a")
        else:
            sys.exit("usage: rlcard_bot.py [--seed N] [--record FILE]")
        args = args[2:]
    np.random.seed(seed)
    # The agent draws through np.random.choice only when it cannot follow by type: note when it does.
    drew = [False]
    draw = np.random.choice

    def noted_draw(*args, **kwargs):
        drew[0] = True
        return draw(*args, **kwargs)

    np.random.choice = noted_draw
    agent = DouDizhuRuleAgentV1()
    misses = [0]
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        drew[0] = False
        choice = answer(agent, request, misses)
        if record is not None:
            entry = {"view": request["view"], "choices": request["choices"], "choice": choice, "drew": drew[0]}
            record.write(json.dumps(entry, separators=(",", ":")) + "\n")
        sys.stdout.write(json.dumps({"id": request["id"], "choice": choice}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
