import copy
import threading

from attrs import define, field


@define
class Worker:
    name: str
    jobs: list = field(factory=list)
    lock: threading.Lock = field(factory=threading.Lock, repr=False)


w = Worker("w1", ["a"])
snapshot = copy.deepcopy(w)
