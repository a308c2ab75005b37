// Original file: proto/platform/auth/v1/auth.proto


export interface StreamReady {
}

export interface StreamReady__Output {
}
