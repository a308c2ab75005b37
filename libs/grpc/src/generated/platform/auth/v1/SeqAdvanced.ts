// Original file: proto/platform/auth/v1/auth.proto


export interface SeqAdvanced {
}

export interface SeqAdvanced__Output {
}
