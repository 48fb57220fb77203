"""The worker-thread slots of hints and reviews belong to the running loop: one left held when
its loop ended (an app stopped mid-hint) does not hold up the next app's loop."""

from __future__ import annotations

import asyncio

from pfeffer.web.services.looplocal import semaphore


def test_a_slot_left_held_by_a_finished_loop_does_not_block_the_next() -> None:
    async def hold_and_leave() -> None:
        await semaphore("t", 1).acquire()  # never released: its loop ends now

    async def take() -> bool:
        await asyncio.wait_for(semaphore("t", 1).acquire(), 2)
        return True

    asyncio.run(hold_and_leave())
    assert asyncio.run(take())


def test_the_slots_count_within_one_loop() -> None:
    async def scenario() -> tuple[bool, bool]:
        s = semaphore("u", 2)
        await s.acquire()
        await s.acquire()
        third = asyncio.create_task(semaphore("u", 2).acquire())
        await asyncio.sleep(0.01)
        waiting = not third.done()
        s.release()
        await asyncio.wait_for(third, 2)
        return waiting, third.done()

    assert asyncio.run(scenario()) == (True, True)
