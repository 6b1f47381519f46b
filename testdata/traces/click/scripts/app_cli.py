import click


class App:
    def __init__(self):
        self.config = {"region": "eu-west-1"}

    @click.command()
    @click.option("--region")
    def run(self, region):
        click.echo(f"running in {region or self.config['region']}")


if __name__ == "__main__":
    App().run()
