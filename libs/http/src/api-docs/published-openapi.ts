import { Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';

/** The serialized document, published once the application's routes exist. */
@Injectable()
export class PublishedOpenApi {
  private serialized = '';

  get json(): string {
    return this.serialized;
  }

  publish(document: OpenAPIObject): void {
    this.serialized = JSON.stringify(document);
  }
}
