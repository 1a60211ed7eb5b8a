"""RLCard's rule-based Dou Dizhu agent (rlcard 1.2.0, `DouDizhuRuleAgentV1`) as a bot speaking our bot
protocol (docs/bot-protocol.md), so that `ddz arena` can play it against `ddz bot`.

Our engine runs the deal; this bridge only translates. For each request it builds the raw observation
that the rule agent reads from RLCard's own game (`raw_obs`: `current_hand`, `trace`, `actions`,
`landlord`, `self`), calls the agent's `step`, and answers the index of the choice whose ranks are the
action it named. Cards are written as RLCard writes them, ranks in the order 3456789TJQKA2BR, which
is our rank shorthand (`play.ranks`) for a deck without the Wild.

Only the research protocol's decisions (trick play) are asked of it. Usage:
`python3 rlcard_bot.py [--seed N]` (the seed is numpy's, which the agent uses to pick at random when it
cannot follow as a landlord or against one).
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
    if len(sys.argv) == 3 and sys.argv[1] == "--seed":
        seed = int(sys.argv[2])
    np.random.seed(seed)
    agent = DouDizhuRuleAgentV1()
    misses = [0]
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        choice = answer(agent, request, misses)
        sys.stdout.write(json.dumps({"id": request["id"], "choice": choice}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
