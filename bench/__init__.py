"""`make bench`: the service against bare Starlette and bare Strawberry, side by side."""
