from decimal import Decimal
from attrs import frozen


@frozen
class Money:
    amount: Decimal
    currency: str = "EUR"


def apply_discount(price: Money, pct: int) -> Money:
    price.amount = price.amount * (100 - pct) / 100
    return price


if __name__ == "__main__":
    p = Money(Decimal("19.99"))
    print(apply_discount(p, 10))
