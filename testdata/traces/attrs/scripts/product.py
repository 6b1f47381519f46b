import attr


class Product:
    name = attr.ib()
    price = attr.ib(default=0)

    def label(self):
        return f"{self.name} ({self.price:.2f} EUR)"


p = Product(name="widget", price=9.99)
print(p.label())
