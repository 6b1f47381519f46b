import click


@click.command()
@click.option("--color", type=click.Choice(["red", "green", "blue"]), default="red")
def paint(color):
    click.echo(color)


if __name__ == "__main__":
    # invoked programmatically from our plugin host
    paint.main(["--colour", "green"], standalone_mode=False)
