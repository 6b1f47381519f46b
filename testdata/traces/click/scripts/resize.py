import click


@click.command()
@click.argument("image")
@click.option("--width", type=int)
def resize(image, width, height):
    click.echo(f"resizing {image} to {width}x{height}")


if __name__ == "__main__":
    resize()
