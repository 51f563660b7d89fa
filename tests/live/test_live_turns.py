"""Real clients over a real socket: every action path, its refusals, and who sees what."""
import uuid


def act(do, **fields):
    return {"do": do, **fields}


def question_for(state, author, qtype):
    return next(c for c in state["candidates"] if c)


def test_a_normal_turn_reaches_every_screen_in_order(table):
    gm = table.gm
    assert gm.last["view"]["turn"]["host"] == 1
    assert {d["do"] for d in gm.last["legal"]} >= {"declare", "end_game", "adjust"}
    table.gm_act(act("declare", mode="normal"), act("choose", author="Kant", type="vf"))
    candidates = gm.last["candidates"]
    assert candidates and all("answer" in c for c in candidates)
    seq = table.gm_act(act("question", id=candidates[0]["id"]), act("verdict", result="full"),
                       act("end_turn"))
    for client in table.everyone:
        seqs = [s["seq"] for s in client.states]
        assert seqs == sorted(seqs), "states arrive in order"
        assert client.last["seq"] == seq
        assert client.last["view"]["teams"][0]["score"] == 2
    assert table.projector.last["view"]["turn"]["host"] == 2


def test_team_devices_act_for_their_team_only(table):
    team1, team2 = table.teams[1], table.teams[2]
    declare = [d for d in team1.last["legal"] if d["do"] == "declare"]
    assert declare and not [d for d in team2.last["legal"] if d["do"] == "declare"]
    refusal = team2.act(act("declare", mode="normal"))
    assert (refusal["ok"], refusal["error"]) == (False, "R-G4")
    assert team1.act(act("declare", mode="normal"))["ok"]
    refusal = team2.act(act("seguro", team=1))
    assert refusal["error"] == "R-G4"                             # forged team number
    refusal = team2.act(act("seguro", team=2))
    assert refusal["error"] == "R-K4"                             # its own, but not its rule
    refusal = team1.act(act("verdict", result="full"))
    assert refusal["error"] == "R-G4"                             # the GM's action
    refusal = table.projector.act(act("spokesperson", team=1, name="Ana"))
    assert refusal["error"] == "R-G4"
    assert team1.act(act("choose", author="Marx", type="quien"))["ok"]
    table.gm.wait_for(lambda s: s["view"]["turn"]["author"] == "Marx")


def test_an_action_sent_twice_is_applied_once(table):
    action_id = str(uuid.uuid4())
    first = table.gm.act(act("spokesperson", team=1, name="Ana"), action_id)
    second = table.gm.act(act("spokesperson", team=1, name="Ana"), action_id)
    assert first["ok"] and second["ok"] and second["seq"] == first["seq"]
    assert second.get("duplicate") is True
    table.gm.wait_seq(first["seq"])
    assert table.gm.last["seq"] == first["seq"] == 1


def test_an_action_sent_again_after_the_game_moved_on_is_not_refused(table):
    """A device that lost the acknowledgement sends its action again after others acted:
    the answer is the original one (applied once), not the refusal the engine would give
    the same action now."""
    declare_id, choose_id = str(uuid.uuid4()), str(uuid.uuid4())
    first = table.gm.act(act("declare", mode="normal"), declare_id)
    host_device = table.teams[1]
    chosen = host_device.act(act("choose", author="Kant", type="vf"), choose_id)
    assert first["ok"] and chosen["ok"]
    table.gm.wait_seq(chosen["seq"])
    again = table.gm.act(act("declare", mode="normal"), declare_id)        # R-U10 now
    assert again == {"ok": True, "seq": first["seq"], "duplicate": True}
    again = host_device.act(act("choose", author="Kant", type="vf"), choose_id)
    assert again == {"ok": True, "seq": chosen["seq"], "duplicate": True}
    fresh = table.gm.act(act("declare", mode="normal"), str(uuid.uuid4()))
    assert fresh["ok"] is False and fresh["error"] == "R-U10"          # a new id is judged
    assert table.gm.call("sync", {"seq": -1})["seq"] == chosen["seq"]


def test_refusals_name_the_rule_and_change_nothing(table):
    before = table.gm.last["seq"]
    for action, rule in [(act("end_turn"), "R-U10"), (act("declare", mode="simple", target=2), "R-U1"),
                         (act("adjust", team=1, points=1), "R-P3"), (act("fly"), "format"),
                         (act("declare", mode="normal", target="<b>x</b>"), "format")]:
        ack = table.gm.act(action)
        assert ack["ok"] is False and ack["error"] == rule and ack["message"]
    for payload in [None, 5, "act", {"action": "declare"}, {"id": "x" * 100, "action": {}}]:
        assert table.gm.call("act", payload)["error"] == "format"
    assert table.gm.call("sync", {"seq": before})["seq"] == before


SECRET = "Nuestra respuesta sellada: Arendt"


def test_projector_and_other_teams_never_receive_answers_or_sealed_writing(server):
    from table import Table
    table = Table(server, {"teams": [{"name": f"E{n}", "members": 4} for n in range(1, 5)],
                           "round_modes": [["simple"], ["risky"]]})
    try:
        answers = set()
        for host in (1, 2, 3, 4):
            target = host % 4 + 1
            table.gm_act(act("declare", mode="simple" if True else "", target=target))
            choice = table.gm.last["legal"][-1] if False else None
            choose = next(d for d in table.gm.last["legal"] if d["do"] == "choose")
            pick = choose["options"]["choices"][host]
            table.gm_act(act("choose", author=pick["author"], type=pick["type"]))
            candidate = table.gm.last["candidates"][0]
            answers.add(candidate["answer"])
            table.gm_act(act("question", id=candidate["id"]))
            secret = f"{SECRET} {host}"
            assert table.teams[target].act(act("write", team=target, text=secret))["ok"]
            table.gm.wait_for(lambda s: s["view"]["turn"]["written"] == secret)
            table.teams[target].wait_for(lambda s: s["view"]["turn"]["written"] == secret)
            for n, client in table.teams.items():
                if n != target:
                    assert all(secret not in raw for raw in client.raw)
            assert all(secret not in raw for raw in table.projector.raw)
            table.gm_act(act("verdict", result="full"), act("written", correct=True),
                         act("end_turn"))
            assert table.projector.last["view"]["history"][-1]["written"] == secret  # revealed
        for client in [table.projector, *table.teams.values()]:
            for raw in client.raw:
                for answer in answers:
                    assert answer not in raw, "an expected answer reached a non-GM screen"
        assert any(answer in raw for raw in table.gm.raw for answer in answers)
    finally:
        table.close()
